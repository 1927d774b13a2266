"""The text report names what its amounts are: the currency when a configuration file gives it
(the journal does not record it), otherwise amounts labelled as money; a bad file is refused."""
from __future__ import annotations

import json

import pytest

from croupier import config
from croupier.cli import main as cli

from journal_kit import write_closed_shift_with_raised_minimum, write_shift


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    """journal_kit's shift (red at 5 a chip: 17 x1 and red x2 on each of 8 spins), and the minimum
    raised from 5 to 10."""
    return write_closed_shift_with_raised_minimum(tmp_path_factory.mktemp("report") / "journal.db")


@pytest.fixture(autouse=True)
def no_installed_configuration(monkeypatch, tmp_path):
    monkeypatch.delenv("CROUPIER_CONFIG", raising=False)
    monkeypatch.setattr(config, "SYSTEM_CONFIG", tmp_path / "no-such-croupier.toml")


def report(journal, capsys, *options) -> str:
    assert cli(["report", "--db", str(journal), *options]) == 0
    return capsys.readouterr().out


def test_with_the_tables_configuration_every_amount_carries_its_currency(journal, tmp_path, capsys):
    settings = tmp_path / "croupier.toml"
    settings.write_text('[table]\ncurrency = "RUB"\nlanguage = "en"\n')
    text = report(journal, capsys, "--config", str(settings))
    assert "table opened under pt-americana, minimum 5.00 RUB, by Ana" in text
    assert "minimum 5.00 -> 10.00 RUB by Boss (busy night)" in text
    assert "Colour ledger (PT-A 9): 1, amounts in RUB" in text
    # By hand, at 5 a chip: staked 8 spins x 3 chips = 24 chips = 120; paid 35 (17 once) + 3 x 2 (red
    # on 32, 5, 23) = 41 chips = 205; lost 7 (17 the other spins) + 5 x 2 (red on 17, 0, 26, 11, 8)
    # = 17 chips; returned the stakes that won, 1 + 3 x 2 = 7. Red bought 200 chips = 1000 and is
    # still in play: no result yet.
    assert "red      seat 1              5.00    1,000.00           -      0.00     in play  staked 24, paid 41, " \
           "collected 17, returned 7" in text
    assert "Totals: bought 1,000.00 RUB, cashed out 0.00 RUB, late chips 0.00 RUB; the table's result 0.00 RUB over " \
           "the colours " \
           "cashed out (1 still in play)" in text
    assert json.loads(report(journal, capsys, "--config", str(settings), "--json"))["currency"] == "RUB"


def test_the_environments_configuration_is_read_as_the_other_commands_read_it(journal, tmp_path, capsys,
                                                                               monkeypatch):
    settings = tmp_path / "croupier.toml"
    settings.write_text('[table]\ncurrency = "EUR"\nlanguage = "en"\n')
    monkeypatch.setenv("CROUPIER_CONFIG", str(settings))
    assert "Totals: bought 1,000.00 EUR, cashed out 0.00 EUR" in report(journal, capsys)


def test_without_a_configuration_amounts_are_labelled_as_money(journal, capsys):
    text = report(journal, capsys)
    assert "Amounts are money in the table's currency, which the journal does not record" in text
    assert "minimum 5.00 (money)" in text and "amounts in money" in text
    assert "Totals: bought 1,000.00 (money), cashed out 0.00 (money), late chips 0.00 (money);" in text
    assert "EUR" not in text  # the demo's default currency is not this table's
    assert json.loads(report(journal, capsys, "--json"))["currency"] is None


def test_a_bad_configuration_is_refused_naming_the_key_and_nothing_is_printed(journal, tmp_path, capsys):
    settings = tmp_path / "croupier.toml"
    settings.write_text('[table]\ncurrency = "euros"\n')
    assert cli(["report", "--db", str(journal), "--config", str(settings)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and f"{settings}: table.currency" in err


def test_an_alert_names_the_pocket_in_the_text_report(tmp_path, capsys):
    path = tmp_path / "biased.db"
    # 17 comes up on one spin in four (fair: one in 37); the others go round the wheel: 100 + the 9
    # spins 17 + 37k (k < 11) not already a multiple of 4 = 109 times.
    write_shift(path, numbers=[17 if i % 4 == 0 else i % 37 for i in range(400)]).close()
    text = report(path, capsys)
    assert "  ALERT: number 17 favoured, alert at spin " in text  # the continuous watch
    assert "  One look: number out of line: 17 (109 times for 10.8 expected)." in text  # 400 spins / 37
    assert "  One look: number 17 came up too often: 109 times for 10.8 expected." in text
    assert "  One look: adjacent pockets 2-25-17 out of line:" in text
    assert "numbers" not in text.split("Wheel statistics")[1].split()  # no internal test names


@pytest.mark.parametrize("profile, rule", [("ru-american", "RU 4.7"), ("pt-srij-french", "SRIJ 3a, 10"),
                                           ("pt-americana", "PT-A 9")])
def test_the_colour_ledger_cites_the_tables_own_regulation_only(tmp_path, capsys, profile, rule):
    from decimal import Decimal

    from croupier.history.ledger import colour_ledger, colour_rule, ledger_table
    from croupier.journal.store import Journal
    from croupier.session import TableSession
    from croupier.table.clock import FakeClock
    from croupier.table.events import ColourAssigned, Role, TableOpened

    from journal_kit import BALLS

    path = tmp_path / "j.db"
    with TableSession.open(path, FakeClock()) as session:
        session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
        session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
        session.open_table(profile=profile, minimum=5, colours=("red",), balls=BALLS, croupier="Ana", pin="1111")
        session.assign_colour(colour="red", player="seat 1", chip_value=Decimal(5), chips=20, by="Ana")
    text = report(path, capsys)
    assert f"Colour ledger ({rule}): 1," in text and "SRIJ 29" not in text
    with Journal.open(path, read_only=True) as journal:
        records = list(journal.events([TableOpened, ColourAssigned]))
    title = ledger_table(colour_ledger(records), rule=colour_rule(records)).title
    assert title.startswith(f"Colour ledger and statements ({rule}):")
    assert colour_rule([], profile="no-such-profile") is None  # no other regulation's rule stands in
