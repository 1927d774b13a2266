"""The players' monitor over a real journal: what it shows, that it follows the table as events are
committed, that it never writes, and how its command refuses a bad journal."""
import hashlib
import re
from decimal import Decimal

from billboard_kit import at, opened, spins
from croupier.billboard.app import BillboardApp
from croupier.billboard.feed import JournalFeed
from croupier.journal.store import Journal
from croupier.table import events as ev
from croupier.table.clock import FakeClock


def screen_text(app) -> str:
    return "\n".join("".join(segment.text for segment in strip) for strip in app.screen._compositor.render_strips())


def write(path, events) -> None:
    with Journal.open(path) as journal:
        journal.append(events)


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def test_it_shows_the_table_and_follows_new_results(tmp_path):
    path = tmp_path / "journal.db"
    write(path, [opened(), ev.ColourAssigned(time=at(0.5), colour="blue", player="seat 2",
                                             chip_value=Decimal(10), chips=20, by="Ana"), *spins([17, 5])])
    app = BillboardApp(path, table_name="Roleta 1", clock=FakeClock(at(10)), poll_s=0.05)
    async with app.run_test(size=(100, 30)) as pilot:
        text = screen_text(app)
        assert "Roleta 1  Place your bets" in text
        assert "Last 2 spins" in text and "Red 50%  Black 50%  Zero 0%" in text  # 5 red, 17 black
        assert "Plein" in text and "150.00" in text  # PT-A 32: 30 x the 5 minimum
        assert "blue" in text and "10.00" in text  # the value board (PT-A 9)
        assert "Values available: 5.00 · 10.00 · 20.00" in text  # the minimum and the values posted
        write(path, spins([0], first_spin=3, minutes=4)[:2])  # launched, no more bets
        await pilot.pause(0.2)
        assert "No more bets" in screen_text(app)
        write(path, spins([0], first_spin=3, minutes=4)[2:])
        await pilot.pause(0.2)
        text = screen_text(app)
        assert "green" in text and "Last 3 spins" in text and "Zero 33%" in text


async def test_it_waits_for_a_journal_the_table_has_not_created_yet(tmp_path):
    path = tmp_path / "later.db"
    app = BillboardApp(path, table_name="Roleta 1", poll_s=0.05)
    async with app.run_test(size=(100, 30)) as pilot:
        assert "Waiting for the table" in screen_text(app)
        write(path, [opened(), *spins([9])])
        await pilot.pause(0.3)
        assert re.search(r"\bLast 1 spin(?!s)", screen_text(app))


async def test_it_never_writes_to_the_journal(tmp_path):
    path = tmp_path / "journal.db"
    write(path, [opened(), *spins([1, 2, 3])])
    before = digest(path)
    app = BillboardApp(path, poll_s=0.05)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause(0.2)
    assert digest(path) == before
    assert not (tmp_path / "journal.db-wal").exists() or (tmp_path / "journal.db-wal").stat().st_size == 0


def test_start_up_reads_the_recent_results_of_a_long_journal(tmp_path):
    path = tmp_path / "journal.db"
    numbers = [n % 37 for n in range(7, 7 + 450)]  # 450 spins, 1,800 events
    write(path, [opened(), *spins(numbers)])
    feed = JournalFeed(path, window=100)
    assert feed.board.last_numbers(100) == numbers[::-1][:100]
    feed.close()


def test_the_command_refuses_a_journal_it_cannot_read(tmp_path, capsys):
    from croupier.commands.billboard import main

    bad = tmp_path / "notes.db"
    bad.write_text("not a database at all")
    assert main(["--db", str(bad)]) == 1
    assert "notes.db" in capsys.readouterr().err
    assert bad.read_text() == "not a database at all"


def test_the_command_refuses_a_bad_configuration(tmp_path, capsys):
    from croupier.commands.billboard import main

    config = tmp_path / "croupier.toml"
    config.write_text('[table]\nlanguage = "xx"\n')
    assert main(["--config", str(config)]) == 2
    assert "table.language: 'xx' is not one of: en, " in capsys.readouterr().err


async def test_the_limits_fit_their_rows_on_an_80_by_24_console(tmp_path):
    path = tmp_path / "journal.db"
    write(path, [opened(), *spins([17])])
    app = BillboardApp(path, table_name="Roleta 1", clock=FakeClock(at(10)), poll_s=0.05)
    async with app.run_test(size=(80, 24)):
        lines = screen_text(app).splitlines()
        # PT-A 32: plein from the 5 minimum to 30 x 5, each limit on its own row, never wrapped
        (plein,) = [line for line in lines if "Plein" in line]
        assert "5.00 – 150.00" in " ".join(plein.split())
        assert not any(line.strip().startswith("150.00") for line in lines)


async def test_it_says_it_waits_for_the_journal_in_the_tables_language(tmp_path):
    from croupier.i18n import install

    install("pt")
    try:
        app = BillboardApp(tmp_path / "later.db", table_name="Roleta 1", poll_s=0.05)
        async with app.run_test(size=(100, 30)):
            text = " ".join(screen_text(app).split())
            assert "À espera da mesa: ainda sem diário em" in text
            assert "no such journal" not in text
    finally:
        install("en")


async def test_a_poll_that_fires_while_the_app_closes_is_a_no_op(tmp_path):
    # The timer can fire after the screen's widgets are removed and before it is stopped.
    app = BillboardApp(tmp_path / "later.db", poll_s=60)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.screen.query("*").remove()
        await pilot.pause()
        app._poll()


def test_the_spins_counted_take_the_plural_of_the_number_in_russian():
    from croupier.i18n import install, ngettext

    install("ru")
    last = lambda count: ngettext("Last {spins} spin", "Last {spins} spins", count).format(spins=count)  # noqa: E731
    assert [last(1), last(2), last(5), last(21)] == [
        "Последний 1 спин", "Последние 2 спина", "Последние 5 спинов", "Последний 21 спин"]


async def test_a_table_of_value_chips_only_shows_no_colour_value_board(tmp_path):
    # PT-B 15b: the table plays value chips only; there is no colour to post a value for.
    from dataclasses import replace

    path = tmp_path / "journal.db"
    write(path, [replace(opened(), profile="pt-americana-2002", posted_values=(), value_only=True), *spins([17])])
    app = BillboardApp(path, table_name="Roleta 1", clock=FakeClock(at(10)), poll_s=0.05)
    async with app.run_test(size=(100, 30)):
        text = screen_text(app)
        assert "Last 1 spin" in text and "Plein" in text  # the limits are posted
        assert "Colour values" not in text and "Values available" not in text


async def test_shares_and_amounts_are_written_as_the_tables_language_writes_them(tmp_path):
    # Russian: a space before the percent sign and a decimal comma, as CLDR has them.
    from croupier.i18n import install

    path = tmp_path / "journal.db"
    write(path, [opened(), *spins([17, 5])])
    install("ru")
    try:
        app = BillboardApp(path, table_name="Рулетка 1", clock=FakeClock(at(10)), poll_s=0.05)
        async with app.run_test(size=(100, 30)):
            text = screen_text(app)
            assert "Красное 50\u00a0%  Чёрное 50\u00a0%  Зеро 0\u00a0%" in text
            assert "150,00" in text and "150.00" not in text
    finally:
        install("en")


async def test_the_monitor_shows_the_journals_currency_and_follows_a_change(tmp_path, capsys):
    import dataclasses

    from croupier.history.context import configuration_disagrees
    from croupier.config import default_config

    path = tmp_path / "journal.db"
    write(path, [dataclasses.replace(opened(), currency="EUR", time_zone="Europe/Lisbon"), *spins([17])])
    app = BillboardApp(path, table_name="Roleta 1", currency="RUB", clock=FakeClock(at(10)), poll_s=0.05)
    async with app.run_test(size=(100, 30)) as pilot:
        text = screen_text(app)
        assert "Table limits (EUR)" in text and "RUB" not in text  # the journal's, not the configured RUB
        write(path, [ev.ContextChanged(time=at(11), currency="CHF", time_zone=None, previous_currency="EUR",
                                       previous_time_zone="Europe/Lisbon", reason="the house's new rule",
                                       by="Boss")])
        await pilot.pause(0.2)
        assert "Table limits (CHF)" in screen_text(app)
    table = dataclasses.replace(default_config(environ={}).table, currency="RUB", time_zone="Europe/Lisbon")
    feed = JournalFeed(path)
    feed.close()
    (line,) = configuration_disagrees(feed.board.state, table)
    assert line == "the configuration's [table] currency is RUB; the journal records CHF, and that is used"
