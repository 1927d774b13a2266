"""Memory stays flat over a long run: spins played through the real app (keys, payout sheet,
payouts recorded), the memory Python holds measured after the first spins and at the end. A table
screen that grew with every spin would run a kiosk Pi out of memory in days."""
import gc
import tracemalloc

from croupier.ui.app import TableApp
from ui_kit import press

SPINS = 300
WARM = 30
BOUND_KB = 3000  # measured 1,764 KB over 270 spins (SQLite page cache and the journal still grow); a 0.3 MB-a-spin leak is 80 MB


async def test_three_hundred_spins_hold_memory_flat(session, config, clock):
    app = TableApp(session, config, wheel=False)
    async with app.run_test(size=(80, 24)) as pilot:
        async def spin(i: int) -> None:
            number = str(4 + i % 6)  # 4-9: proposed at once
            await press(pilot, "enter", number, "enter", "1", "d")  # launch; result; 1 chip on the first row; D
            clock.advance(seconds=5)  # 300 spins within the hour: no relief falls due

        for i in range(WARM):
            await spin(i)
        gc.collect()
        tracemalloc.start(1)
        try:
            before = tracemalloc.get_traced_memory()[0]
            for i in range(WARM, SPINS):
                await spin(i)
            gc.collect()
            grown = (tracemalloc.get_traced_memory()[0] - before) // 1024
        finally:
            tracemalloc.stop()
    paid = [e.event for e in session.journal.entries() if e.event.kind == "payouts-recorded"]
    assert len(paid) == SPINS
    print(f"{SPINS - WARM} spins: {grown} KB")
    assert grown < BOUND_KB, f"{grown} KB over {SPINS - WARM} spins"
