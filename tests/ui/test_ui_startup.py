"""The table's start: `croupier table` holds the garbage collector off while it starts, and the
screen turns it back on once it is up, so a table that runs for weeks does not grow."""
import gc

from croupier.startup import collect_later
from ui_kit import screen_text


async def test_the_collector_runs_again_once_the_table_screen_is_up(table_app):
    collect_later()  # as `croupier table` starts
    try:
        async with table_app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "menu" in screen_text(table_app)
            assert gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()
