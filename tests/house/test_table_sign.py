"""The house's table sign (RU 4.8, FR, PT-A 32 "até"): a maximum per kind of bet below the
regulation's cap, a minimum per kind, announced-bet limits; checked against the profile's caps in the
configuration, enforced by the session, in `croupier payout --sign` and in the journal, and changed by
the pit boss between spins."""
import json
from decimal import Decimal

import shutil

import pytest

from croupier.commands.payout import main as payout
from croupier.config import ConfigError, load_config
from croupier.rules.limits import sign_from_data
from croupier.rules.profiles import load_profile, profile_ids
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import SignChanged, Stake, TableOpened
from croupier.table.refusal import Refused, SignBetweenSpins, SignNotAllowed
from croupier.table.regulation import limits_of
from croupier.table.state import fold
from ui_kit import BALLS, COLOURS, PINS, register_staff

MINIMUM = Decimal(5)


def plein_cap(profile_id: str) -> Decimal:
    return load_profile(profile_id).limits.ratios["plein"] * MINIMUM


def house_maximum(profile_id: str) -> Decimal:
    """A house plein maximum below the regulation's cap: two chips of the minimum less."""
    return plein_cap(profile_id) - 2 * MINIMUM


def write_config(tmp_path, profile_id: str, sign: str) -> str:
    path = tmp_path / "croupier.toml"
    path.write_text(f'[table]\nprofile = "{profile_id}"\nminimum = {MINIMUM}\n{sign}', encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def staffed(tmp_path_factory):
    path = tmp_path_factory.mktemp("sign") / "staffed.db"
    with TableSession.open(path, FakeClock()) as session:
        register_staff(session)
    return path


@pytest.fixture
def journal(staffed, tmp_path):
    path = tmp_path / "journal.db"
    for name in ("staffed.db", "staffed.db.head", "table.key", "table-signing.key"):  # the journal, its witness, keys
        shutil.copy(staffed.with_name(name), tmp_path / name.replace("staffed.db", "journal.db"))
    return path


def open_with_sign(session, profile_id, sign):
    session.open_table(profile=profile_id, minimum=MINIMUM, colours=COLOURS, balls=BALLS, croupier="Ana", pin="1111",
                       inspector="Ines", by="Marta", sign=sign)
    session.assign_colour(colour="red", player="seat 1", chip_value=MINIMUM, chips=500, by="Ana")


@pytest.mark.parametrize("profile_id", profile_ids())
def test_a_house_maximum_below_the_cap_is_posted_and_holds_in_the_journal(tmp_path, journal, profile_id):
    most = house_maximum(profile_id)
    config = load_config(write_config(tmp_path, profile_id, f"[table.sign.maximum]\nplein = {most}\n"), environ={})
    assert config.table.sign.maxima == {"plein": most}
    with TableSession.open(journal, FakeClock()) as session:
        open_with_sign(session, profile_id, config.table.sign)
        chips = int(most / MINIMUM)
        over = (Stake(bet="17", chips=chips + 1),)  # one chip above the house's maximum, within the regulation's
        if load_profile(profile_id).breach.above_maximum == "refuse":
            with pytest.raises(Refused, match=f"the plein maximum is {most} on 17"):
                session.place_bets(colour="red", stakes=over)
        else:  # played up to the house's maximum, the rest handed back
            (placed,) = session.place_bets(colour="red", stakes=over)
            assert placed.stakes == (Stake(bet="17", chips=chips),)
        session.place_bets(colour="red", stakes=(Stake(bet="20", chips=chips),))  # at the maximum: taken whole
    with TableSession.open(journal, FakeClock()) as session:
        opened = next(e.event for e in session.journal.entries() if isinstance(e.event, TableOpened))
        assert opened.sign == {"maximum.plein": most}
        assert limits_of(fold([e.event for e in session.journal.entries()])).maxima["plein"] == most


@pytest.mark.parametrize("profile_id", profile_ids())
def test_a_sign_above_the_regulations_cap_is_refused_naming_its_key(tmp_path, profile_id):
    cap = plein_cap(profile_id)
    path = write_config(tmp_path, profile_id, f"[table.sign.maximum]\nplein = {cap + MINIMUM}\n")
    with pytest.raises(ConfigError) as error:
        load_config(path, environ={})
    assert error.value.key == "table.sign.maximum.plein"
    assert f"above the cap of {profile_id} at minimum {MINIMUM}: {cap}" in error.value.problem


@pytest.mark.parametrize("sign, key, words", [
    ("[table.sign.minimum]\nplein = 2\n", "table.sign.minimum.plein", "below the table minimum 5"),
    ("[table.sign]\nminimum = { split = 100 }\nmaximum = { split = 50 }\n", "table.sign.minimum.split",
     "100 is above the split maximum 50"),
    ("[table.sign.maximum]\nsixline = 50\n", "table.sign.maximum.sixline", "has no bet 'sixline'"),
    ("[table.sign.maximum]\nplein = \"lots\"\n", "table.sign.maximum.plein", "expected an amount"),
    ("[table.sign]\nmaxima = { plein = 50 }\n", "table.sign.maxima", "unknown key"),
    ("[table.sign.announced]\nnassa = 50\n", "table.sign.announced.nassa", "has no announced bet 'nassa'"),
    ("[table.sign.announced]\nvoisins = 1000\n", "table.sign.announced.voisins", "cap of pt-americana"),
])
def test_every_sign_error_names_its_key(tmp_path, sign, key, words):
    with pytest.raises(ConfigError) as error:
        load_config(write_config(tmp_path, "pt-americana", sign), environ={})
    assert error.value.key == key and words in str(error.value)


def test_ru_4_8_a_minimum_per_kind_of_bet_voids_a_smaller_bet(journal):
    with TableSession.open(journal, FakeClock()) as session:
        open_with_sign(session, "ru-american", sign_from_data({"minimum": {"simple": 25}}))
        with pytest.raises(Refused, match="red: 20 on red is below the simple minimum 25"):
            session.place_bets(colour="red", stakes=(Stake(bet="red", chips=4),))
        session.place_bets(colour="red", stakes=(Stake(bet="red", chips=5), Stake(bet="17", chips=1)))


def test_an_announced_bet_limit_of_the_sign(journal):
    with TableSession.open(journal, FakeClock()) as session:  # PT-A 32c allows voisins up to 135 x 5
        open_with_sign(session, "pt-americana", sign_from_data({"announced": {"voisins": 90}}))
        with pytest.raises(Refused, match="the table sign's voisins maximum is 90"):
            session.place_bets(colour="red", stakes=(Stake(bet="voisins", chips=3),))  # 27 chips of 5
        session.place_bets(colour="red", stakes=(Stake(bet="voisins", chips=2),))  # 90: at the maximum


def write_sign(tmp_path, profile_id, most) -> str:
    path = tmp_path / "sign.toml"
    path.write_text(f'[table]\nprofile = "{profile_id}"\nminimum = 5\n[table.sign.maximum]\nplein = {most}\n')
    return str(path)


@pytest.mark.parametrize("profile_id", profile_ids())
def test_croupier_payout_checks_the_bets_against_the_sign(tmp_path, capsys, profile_id):
    most = house_maximum(profile_id)
    chips = int(most / MINIMUM)
    code = payout(["--sign", write_sign(tmp_path, profile_id, most), "--json", "--number", "17",
                   f"17x{chips + 1}@red", f"17x{chips}@blue"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0 and result["profile"] == profile_id
    (note,) = result["limits"]
    assert note["input"] == f"17x{chips + 1}@red" and f"the plein maximum is {most}.00 on 17" in note["message"] \
        or f"the plein maximum is {most} on 17" in note["message"]
    won = {line["owner"]: line["won"] for line in result["lines"]}
    assert won["blue"] == 35 * chips  # at the house maximum: paid whole
    if load_profile(profile_id).breach.above_maximum == "refuse":
        assert note["status"] == "refused" and "red" not in won
    else:
        assert note["status"] == "adjusted" and won["red"] == 35 * chips


def test_croupier_payout_refuses_a_sign_above_the_cap_naming_its_key(tmp_path, capsys):
    with pytest.raises(SystemExit):
        payout(["--sign", write_sign(tmp_path, "pt-americana", 1000), "--number", "17", "17"])
    assert "sign.toml: table.sign.maximum.plein: 1000 is above the cap of pt-americana" in capsys.readouterr().err


def test_the_pit_boss_changes_the_sign_between_spins_with_a_pin(journal):
    from croupier.rules.spin import Direction

    with TableSession.open(journal, FakeClock()) as session:
        open_with_sign(session, "pt-americana", sign_from_data({}))
        change = dict(sign={"maximum": {"plein": 50}}, reason="busy table", by="Marta")
        with pytest.raises(Refused, match="wrong PIN"):
            session.change_sign(**change, pin="0000")
        session.launch(direction=Direction.CLOCKWISE)
        with pytest.raises(Refused) as during:
            session.change_sign(**change, pin=PINS["Marta"])
        assert isinstance(during.value, SignBetweenSpins)
        session.enter_result(number=3, by="Ana")
        session.confirm_result(by="Ana")
        session.payouts_done(by="Ana")
        (changed,) = session.change_sign(**change, pin=PINS["Marta"])
        assert isinstance(changed, SignChanged) and changed.sign == {"maximum.plein": Decimal(50)}
        assert changed.previous == {} and changed.by == "Marta"
        with pytest.raises(Refused, match="the plein maximum is 50 on 17"):
            session.place_bets(colour="red", stakes=(Stake(bet="17", chips=11),))
        with pytest.raises(Refused) as above:
            session.change_sign(sign={"maximum": {"plein": 1000}}, reason="x", by="Marta", pin=PINS["Marta"])
        assert isinstance(above.value, SignNotAllowed)
        assert (above.value.key, above.value.reason) == ("maximum.plein", "above-cap")



@pytest.mark.parametrize("profile_id", ["pt-americana", "pt-americana-2002", "pt-srij-french"])
def test_a_colour_chip_is_worth_at_most_the_sign_s_plein_maximum(tmp_path, journal, profile_id):
    # These profiles hold a colour chip's value to the plein maximum; the sign's, where it posts a
    # lower one: the configuration, the colour given out and a later sign are all checked against it.
    below = house_maximum(profile_id)
    value = below + MINIMUM  # under the regulation's cap, above the house's plein maximum
    with pytest.raises(ConfigError) as bad:
        load_config(write_config(tmp_path, profile_id,
                                 f"posted_values = [{value}]\n[table.sign.maximum]\nplein = {below}\n"))
    assert bad.value.key == "table.posted_values[0]" and f"above the plein maximum {below}" in str(bad.value)

    with TableSession.open(journal, FakeClock()) as session:
        session.open_table(profile=profile_id, minimum=MINIMUM, colours=COLOURS, balls=BALLS, croupier="Ana",
                           pin="1111",
                           inspector="Ines", by="Marta", posted_values=(value,),
                           sign=sign_from_data({"maximum": {"plein": below}}))
        with pytest.raises(Refused, match=f"above the plein maximum {below}"):
            session.assign_colour(colour="red", player="seat 1", chip_value=value, chips=20, by="Ana")
        session.change_sign(sign={}, reason="busy table", by="Marta", pin=PINS["Marta"])  # the cap again
        session.assign_colour(colour="red", player="seat 1", chip_value=value, chips=20, by="Ana")
        with pytest.raises(Refused) as lower:
            session.change_sign(sign={"maximum": {"plein": below}}, reason="quiet", by="Marta", pin=PINS["Marta"])
        assert lower.value.facts["amount"] == value and lower.value.facts["maximum"] == below
        assert limits_of(session.state).maxima["plein"] == plein_cap(profile_id)  # nothing recorded


@pytest.mark.parametrize("profile_id", profile_ids())
def test_a_sign_change_reads_back_verifies_and_exports_under_every_profile(tmp_path, journal, profile_id, capsys):
    from croupier.commands.review import main as review
    from croupier.commands.verify import main as verify

    with TableSession.open(journal, FakeClock()) as session:
        open_with_sign(session, profile_id, sign_from_data({}))
        (changed,) = session.change_sign(sign={"maximum": {"plein": house_maximum(profile_id)}}, reason="busy table",
                                         by="Marta", pin=PINS["Marta"])
        assert changed.time == session.clock.now()
    with TableSession.open(journal, FakeClock()) as session:  # the table reads its own journal at the next start
        assert session.state.sign == changed.sign
    assert verify(["--db", str(journal), "--key", str(journal.with_name("table.key"))]) == 0
    assert "intact" in capsys.readouterr().out
    assert review(["--db", str(journal), "--csv-events", str(tmp_path / "events.csv")]) == 0
    assert "sign-changed" in (tmp_path / "events.csv").read_text(encoding="utf-8-sig")


@pytest.mark.parametrize("profile_id", profile_ids())
def test_no_sign_posts_a_plein_maximum_below_a_colour_in_play(journal, profile_id):
    """Under every profile (RU and FR too, whose colour values are not held to the plein maximum):
    blue's chip worth 100 and a sign posting a plein maximum of 50 would make every plein of blue
    over the limit. Refused, naming the chip and the maximum; nothing recorded."""
    value = min(Decimal(100), plein_cap(profile_id))
    lower = value / 2
    with TableSession.open(journal, FakeClock()) as session:
        session.open_table(profile=profile_id, minimum=MINIMUM, colours=COLOURS, balls=BALLS, croupier="Ana",
                           pin="1111",
                           inspector="Ines", by="Marta", posted_values=(value,))
        session.assign_colour(colour="blue", player="seat 4", chip_value=value, chips=20, by="Ana")
        before = session.seq
        with pytest.raises(Refused, match=f"a colour chip of {value} is above the plein maximum {lower}"):
            session.change_sign(sign={"maximum": {"plein": lower}}, reason="quiet", by="Marta", pin=PINS["Marta"])
        assert session.seq == before


def test_croupier_payout_reads_a_sign_file_as_the_table_does(tmp_path, capsys):
    """A byte-order mark and a maximum with a fraction: the table takes the file, and so does payout."""
    path = tmp_path / "sign.toml"
    path.write_bytes('\ufeff[table]\nprofile = "pt-americana"\nminimum = 5\n[table.sign.maximum]\nplein = 62.5\n'
                     .encode("utf-8"))
    assert load_config(path, environ={}).table.sign.maxima["plein"] == Decimal("62.5")
    code = payout(["--sign", str(path), "--json", "--number", "17", "17x13@red", "17x12@blue"])
    result = json.loads(capsys.readouterr().out)
    (note,) = result["limits"]
    assert code == 0 and note["input"] == "17x13@red" and "62.5" in note["message"]


@pytest.mark.parametrize("table, words", [
    ("minimum = 5.001", "table.minimum: the table minimum is money: at most 2 decimal places"),
    ("minimum = 5\nminimun = 10", "table.minimun: unknown key"),
    ('minimum = 5\nprofile = "pt-american"', "table.profile: 'pt-american' is not one of: "),
])
def test_croupier_payout_refuses_the_sign_files_the_table_refuses(tmp_path, capsys, table, words):
    path = write_config(tmp_path, "pt-americana", "")
    path.write_text(f"[table]\n{table}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=words):
        load_config(path, environ={})
    with pytest.raises(SystemExit):
        payout(["--sign", str(path), "--number", "17", "17"])
    assert words in capsys.readouterr().err
