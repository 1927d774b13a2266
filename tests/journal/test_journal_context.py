"""The journal carries its own currency, time zone, casino and table id, recorded at the opening:
a report read with another table's configuration uses the journal's, and says where they differ."""
import json

from croupier.cli import main as cli
from croupier.rules.spin import Direction
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import Role

from journal_kit import BALLS


def lisbon_shift(path) -> None:
    clock = FakeClock()  # 2025-01-06 14:00 UTC: 14:00 in Lisbon, 17:00 in Moscow
    session = TableSession.open(path, clock)
    session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
    session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
    session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="Ana", pin="1111",
                       table_id="T1", currency="EUR", time_zone="Europe/Lisbon", casino="Casino Estoril")
    session.launch(direction=Direction.CLOCKWISE)
    session.close_bets()
    session.enter_result(number=17)
    session.confirm_result()
    session.close()


def test_a_report_read_with_another_tables_configuration_uses_the_journals_context(tmp_path, capsys):
    journal, settings = tmp_path / "j.db", tmp_path / "table_ru.toml"
    lisbon_shift(journal)
    settings.write_text('[table]\nid = "R9"\ncurrency = "RUB"\ntime_zone = "Europe/Moscow"\nlanguage = "en"\n')
    assert cli(["report", "--db", str(journal), "--config", str(settings)]) == 0
    out, err = capsys.readouterr()
    assert "Amounts in EUR" in out and "RUB" not in out
    assert "Europe/Lisbon" in out and "Europe/Moscow" not in out
    for key, configured, recorded in (("currency", "RUB", "EUR"), ("time_zone", "Europe/Moscow", "Europe/Lisbon"),
                                      ("id", "R9", "T1")):
        assert (f"the configuration's [table] {key} is {configured}; the journal recorded {recorded} when the "
                "table opened, and that is used") in err
    assert cli(["report", "--db", str(journal), "--config", str(settings), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["currency"] == "EUR"


def test_the_opening_records_the_context_in_the_chain(tmp_path):
    journal = tmp_path / "j.db"
    lisbon_shift(journal)
    from croupier.journal.store import Journal

    with Journal.open(journal, read_only=True) as reader:
        opened = next(e.event for e in reader.entries() if e.event.kind == "table-opened")
    assert (opened.currency, opened.time_zone, opened.casino, opened.table_id) == (
        "EUR", "Europe/Lisbon", "Casino Estoril", "T1")
