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
        assert (f"the configuration's [table] {key} is {configured}; the journal records {recorded}, "
                "and that is used") in err
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


def changed_shift(path) -> None:
    """The Lisbon shift, then the pit boss records Moscow time, then a spin an hour later (the
    currency stays: the shift already has a spin in euros)."""
    lisbon_shift(path)
    clock = FakeClock()
    clock.advance(seconds=3600)
    with TableSession.open(path, clock) as session:
        session.payouts_done()
        session.change_context(time_zone="Europe/Moscow", reason="the table moved to Moscow", by="Boss", pin="9000")
        clock.advance(seconds=600)
        session.launch(direction=Direction.ANTICLOCKWISE)
        session.close_bets()
        session.enter_result(number=4)
        session.confirm_result()


def test_only_a_pit_boss_changes_the_currency_or_time_zone_between_spins_saying_why(tmp_path):
    import pytest

    from croupier.table import refusal as no
    from croupier.table.refusal import Refused

    lisbon_shift(tmp_path / "j.db")
    with TableSession.open(tmp_path / "j.db", FakeClock()) as session:
        attempts = ((dict(time_zone="Europe/Moscow", reason="moved", by="Ana", pin="1111"), Refused),
                    (dict(time_zone="Europe/Moscow", reason=" ", by="Boss", pin="9000"), no.ContextReasonMissing),
                    (dict(time_zone="Mars/Olympus", reason="moved", by="Boss", pin="9000"), no.ContextZoneUnknown),
                    (dict(currency="EURO", reason="moved", by="Boss", pin="9000"), no.ContextCurrencyInvalid),
                    (dict(currency="eur", time_zone="Europe/Lisbon", reason="x", by="Boss", pin="9000"),
                     no.ContextUnchanged))
        for arguments, kind in attempts:
            with pytest.raises(kind):
                session.change_context(**arguments)
        session.payouts_done()
        session.launch(direction=Direction.ANTICLOCKWISE)
        with pytest.raises(no.ContextBetweenSpins):
            session.change_context(currency="RUB", reason="moved", by="Boss", pin="9000")
        assert (session.state.currency, session.state.time_zone) == ("EUR", "Europe/Lisbon")
        assert not [e for e in session.journal.entries() if e.event.kind == "context-changed"]


def test_readers_use_the_currency_and_time_zone_in_force_at_each_event(tmp_path, capsys):
    from croupier.history.timeline import describe
    from croupier.journal.store import Journal

    journal = tmp_path / "j.db"
    changed_shift(journal)
    with TableSession.open(journal, FakeClock(), read_only=True) as session:  # folded again from the journal
        assert (session.state.currency, session.state.time_zone) == ("EUR", "Europe/Moscow")
    with Journal.open(journal, read_only=True) as reader:
        (changed,) = [e.event for e in reader.entries() if e.event.kind == "context-changed"]
    assert (changed.previous_currency, changed.previous_time_zone, changed.by) == ("EUR", "Europe/Lisbon", "Boss")
    assert describe(changed) == "time zone Europe/Lisbon -> Europe/Moscow by Boss: the table moved to Moscow"
    assert cli(["report", "--db", str(journal)]) == 0
    out = capsys.readouterr().out
    assert "Amounts in EUR" in out
    # spin 1 at 14:00 UTC in Lisbon (14:00), spin 2 at 15:10 UTC in Moscow (18:10)
    assert " 14:00:" in out and " 18:10:" in out and " 15:10:" not in out


def test_a_checkpoint_keeps_the_context_with_its_changes(tmp_path):
    from croupier.history.context import KINDS, context_from_plain, context_plain, journal_context
    from croupier.journal.store import Journal

    journal = tmp_path / "j.db"
    changed_shift(journal)
    with Journal.open(journal, read_only=True) as reader:
        events = list(reader.events(KINDS))
    whole = journal_context(events)
    assert [zone for _since, zone in whole.zones] == ["Europe/Lisbon", "Europe/Moscow"]
    kept = context_from_plain(json.loads(json.dumps(context_plain(journal_context(events[:1])))))
    assert journal_context(events[1:], kept) == whole  # a report from a checkpoint goes on from what it kept


def test_a_shifts_money_is_in_one_currency_so_no_amount_is_labelled_with_another(tmp_path, capsys):
    """The currency changes right after the opening; once a spin is counted or chips move, the
    change is refused and every rendering still names the currency the amounts were taken in."""
    import pytest
    from decimal import Decimal

    from croupier.table import refusal as no

    def boss_changes(session, currency):
        session.change_context(currency=currency, reason="the house's rule", by="Boss", pin="9000")

    lisbon_shift(tmp_path / "spun.db")  # a counted spin in euros
    with TableSession.open(tmp_path / "spun.db", FakeClock()) as session:
        session.payouts_done()
        with pytest.raises(no.ContextCurrencyShiftStarted):
            boss_changes(session, "RUB")
        session.change_context(time_zone="Europe/Moscow", reason="moved", by="Boss", pin="9000")  # the zone may
    for rendering in (["report"], ["report", "--json"]):
        assert cli([*rendering, "--db", str(tmp_path / "spun.db")]) == 0
        out = capsys.readouterr().out
        assert "EUR" in out and "RUB" not in out

    clock = FakeClock()
    session = TableSession.open(tmp_path / "chips.db", clock)
    session.register_staff(name="Boss", role=Role.PIT_BOSS, pin="9000")
    session.register_staff(name="Ana", role=Role.CROUPIER, pin="1111", by="Boss", by_pin="9000")
    session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="Ana", pin="1111",
                       currency="EUR", time_zone="Europe/Lisbon")
    boss_changes(session, "GBP")  # nothing taken yet: the shift's one currency is now pounds
    session.assign_colour(colour="red", player="seat 1", chip_value=Decimal("5"), chips=20, by="Ana")
    session.cash_out(colour="red", chips=20, by="Ana")  # given and cashed before any spin: still pounds
    with pytest.raises(no.ContextCurrencyShiftStarted):
        boss_changes(session, "RUB")
    session.close()
    assert cli(["report", "--db", str(tmp_path / "chips.db")]) == 0
    out = capsys.readouterr().out
    assert "Amounts in GBP" in out and "amounts in GBP" in out and "RUB" not in out
