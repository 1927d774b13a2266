"""Power cuts: `croupier run --headless` fed by a simulated wheel is killed with SIGKILL at random
points and started again on the same journal. No committed event is lost, no game is recorded
twice, `verify` passes, and SIGTERM stops it cleanly."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter

import pytest

from croupier.journal.store import Journal
from croupier.journal.verify import verify
from croupier.wheel.simulator import WheelSimulator

ROUNDS = 6


def committed(path) -> dict[int, str]:
    """seq -> hash of every event another program can see: what was committed."""
    if not path.exists():
        return {}
    with Journal.open(path, read_only=True) as journal:
        return {row.seq: row.hash for row in journal.rows()}


def start(db, device, log):
    env = {k: v for k, v in os.environ.items() if k != "CROUPIER_CONFIG"}
    return subprocess.Popen(
        [sys.executable, "-m", "croupier", "run", "--headless", "--db", str(db), "--profile", "pt-americana",
         "--wheel", f"cammegh-ss2:{device}"],
        stdout=subprocess.DEVNULL, stderr=log, env=env,
    )


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="the simulated wheel needs a pseudo-terminal")
def test_kill_9_at_random_points_loses_no_committed_event_and_records_no_game_twice(tmp_path):
    rng = random.Random(1701)
    db = tmp_path / "journal.db"
    wheel = WheelSimulator("cammegh-ss2", speed=25, seed=5, link_path=tmp_path / "wheel")
    device = wheel.start()
    seen: dict[int, str] = {}
    try:
        with open(tmp_path / "run.log", "wb") as log:
            for _ in range(ROUNDS):
                proc = start(db, device, log)
                time.sleep(rng.uniform(0.3, 2.5))  # from start-up to mid-game, mid-append
                seen.update(committed(db))
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                after = committed(db)
                lost = {seq for seq, digest in seen.items() if after.get(seq) != digest}
                assert not lost, f"committed events lost or changed by the kill: {sorted(lost)}"
                seen = after
            proc = start(db, device, log)
            time.sleep(3.0)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=10) == 0
        assert b"stopped at event" in (tmp_path / "run.log").read_bytes().splitlines()[-1]
    finally:
        wheel.stop()

    with Journal.open(db, read_only=True) as journal:
        verdict = verify(journal)
        results = [entry.event for entry in journal.entries() if entry.event.kind == "result-recorded"]
        tables = [entry.event for entry in journal.entries() if entry.event.kind == "table-opened"]
    assert verdict.intact, verdict.problem
    assert all(committed(db).get(seq) == digest for seq, digest in seen.items())
    assert len(tables) == 1  # every restart continued the same table
    games = Counter(r.wheel_game for r in results)
    assert games and max(games.values()) == 1, f"games recorded twice: {[g for g, n in games.items() if n > 1]}"
    played = {g.game: g.number for g in wheel.played}
    assert all(played.get(r.wheel_game, r.number) == r.number for r in results)  # each the wheel's own number
    assert [r.spin for r in results] == list(range(1, len(results) + 1))
    assert len(results) >= len(played) // 2  # most games were recorded despite the kills
