"""A sixth profile and a fifth language added by writing files only: found by `croupier payout`, the
configuration and the table screen; and the journal settles every spin by the rules it recorded."""
import json
from decimal import Decimal

import pytest

from croupier.commands.payout import main as payout
from croupier.config import ConfigError, load_config
from croupier.i18n import install, languages
from croupier.rules.profiles import ProfileError, load_profile, profile_ids
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import Stake
from croupier.table.regulation import limits_of, profile_of
from croupier.table.state import fold
from house_kit import HOUSE_LANGUAGE, HOUSE_PROFILE, HOUSE_WORDS, write_house
from ui_kit import BALLS, COLOURS, flat, press, register_staff, screen_text


@pytest.fixture
def house(tmp_path):
    return write_house(tmp_path / "house")


def test_the_house_profile_and_language_are_found_from_their_files(house):
    assert HOUSE_PROFILE not in profile_ids() and HOUSE_PROFILE in profile_ids(house)
    assert {"pt-americana", "mt-fair"} <= set(profile_ids(house))
    assert HOUSE_LANGUAGE not in languages() and HOUSE_LANGUAGE in languages(house)
    assert load_profile(HOUSE_PROFILE, house).limits.ratios["plein"] == 20
    with pytest.raises(ProfileError, match=f"'{HOUSE_PROFILE}' is not a profile"):
        load_profile(HOUSE_PROFILE)


def test_a_house_file_whose_id_is_not_its_name_is_refused(house):
    (house / "profiles" / "other.toml").write_text(
        (house / "profiles" / f"{HOUSE_PROFILE}.toml").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(ProfileError, match=f"other.toml: id: says '{HOUSE_PROFILE}', not 'other'"):
        load_profile("other", house)


def test_croupier_payout_runs_the_house_profile(house, capsys):
    code = payout(["--house", str(house), "--profile", HOUSE_PROFILE, "--json", "--number", "0", "redx4"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["profile"] == HOUSE_PROFILE
    assert out["lines"][0]["kept"] == 2  # RU 4.11's half back on zero, from the house's copy


def test_croupier_payout_without_the_house_names_the_profiles_it_has(capsys):
    with pytest.raises(SystemExit):
        payout(["--profile", HOUSE_PROFILE, "--number", "0", "red"])
    assert f"'{HOUSE_PROFILE}' is not a profile; use one of mt-fair" in capsys.readouterr().err


def write_config(tmp_path, house, **table) -> str:
    """[table] naming the house directory, its profile and its language; a key given None is left out."""
    keys = {"house_directory": "house", "profile": HOUSE_PROFILE, "language": HOUSE_LANGUAGE, **table}
    keys = {key: value for key, value in keys.items() if value is not None}
    path = tmp_path / "croupier.toml"
    path.write_text("[table]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in keys.items()), encoding="utf-8")
    return path


def test_the_configuration_takes_the_house_directory_beside_it(tmp_path, house):
    table = load_config(write_config(tmp_path, house), environ={}).table
    assert (table.profile, table.language, table.house) == (HOUSE_PROFILE, HOUSE_LANGUAGE, house)


@pytest.mark.parametrize("keys, key, words", [
    ({"house_directory": "nowhere"}, "table.house_directory", "is not a directory"),
    ({"house_directory": None}, "table.profile", f"'{HOUSE_PROFILE}' is not one of: mt-fair"),
    ({"language": "xx"}, "table.language", f"'xx' is not one of: en, {HOUSE_LANGUAGE}"),
])
def test_the_configuration_names_the_key_a_house_file_does_not_satisfy(tmp_path, house, keys, key, words):
    path = write_config(tmp_path, house, **keys)
    with pytest.raises(ConfigError) as error:
        load_config(path, environ={})
    assert error.value.key == key and words in str(error.value)


def open_house_table(session, house):
    register_staff(session)
    session.open_table(profile=HOUSE_PROFILE, house=house, minimum=Decimal(5), colours=COLOURS, balls=BALLS,
                       croupier="Ana", pin="1111", inspector="Ines", by="Marta")
    session.assign_colour(colour="red", player="seat 1", chip_value=Decimal(5), chips=100, by="Ana")


def test_the_journal_settles_by_the_rules_it_recorded_not_the_file_edited_since(tmp_path, house):
    path = tmp_path / "journal.db"
    with TableSession.open(path, FakeClock()) as session:
        open_house_table(session, house)
    write_house(house, plein_ratio=30)  # the house edits its file after the shift
    load_profile.cache_clear()  # as a new process would read it
    assert load_profile(HOUSE_PROFILE, house).limits.ratios["plein"] == 30
    with TableSession.open(path, FakeClock()) as session:
        events = [entry.event for entry in session.journal.entries()]
        for state in (session.state, fold(events)):
            assert profile_of(state).limits.ratios["plein"] == 20
            assert limits_of(state).maxima["plein"] == 100  # 20 x the minimum 5
        # RU 4.8: above the maximum the bet plays up to it (20 chips of 5), the rest goes back.
        (placed,) = session.place_bets(colour="red", stakes=(Stake(bet="17", chips=21),))
        assert placed.stakes == (Stake(bet="17", chips=20),) and "maximum is 100" in placed.notes[0]


async def test_the_table_screen_runs_the_house_profile_in_the_house_language(tmp_path, house):
    from croupier.ui.app import TableApp

    config = load_config(write_config(tmp_path, house), environ={})
    install(config.table.language, config.table.house)
    try:
        with TableSession.open(tmp_path / "journal.db", FakeClock()) as session:
            open_house_table(session, house)
            session.place_bets(colour="red", stakes=(Stake(bet="17", chips=2),))  # RU 4.9: a bet before the launch
            app = TableApp(session, config, wheel=False)
            async with app.run_test(size=(80, 24)) as pilot:
                text = flat(screen_text(app))
                assert HOUSE_PROFILE in text and HOUSE_WORDS["Place your bets"] in text
                await press(pilot, "enter", "enter")  # launch, then no more bets
                assert HOUSE_WORDS["No more bets"] in flat(screen_text(app))
    finally:
        install("en")
