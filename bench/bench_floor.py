"""The casino floor, measured with a real nats-server on this machine. Run by hand:

    .venv/bin/python bench/bench_floor.py [--tables 50] [--spins 200] [--store URL] [--run-seconds 30]

It prints:

- ingest: events per second the ingester stores from a stream already holding every table's
  events (50 tables x SPINS spins, about 3 events a spin; published first and the publishers
  stopped, so only the ingester, the store and the broker work while it is timed), the headroom
  over a floor of 50 tables at a spin a minute (2.5 events/s in all), and the CPU an event costs in
  each of them (less sensitive than the rate to others sharing the machine); the rate over the whole
  run (from the ingester's start) and beside it the sustained one (from its first commit seen);
- table to store: the latency from an event's time at the table (its session, SystemClock) to the
  ingester's commit of it, p50 and p99, for a table recording an event every 100 ms;
- catch-up: from a table's link coming back to the floor holding its whole journal, after a
  one-hour outage of a table playing a spin a minute (and a 24-hour one);
- the table's cost of publishing: CPU seconds and peak memory of `croupier run --headless` on a
  simulated wheel for RUN_SECONDS, with and without `--floor`;
- the floor view (`--parts view`): its first picture, its refreshes (nothing new, and a tenth of the
  tables moved) and its peak memory over a store of VIEW_TABLES tables whose summaries count
  VIEW_SPINS spins each (a year at a spin a minute by default);
- a floor of FLOOR_TABLES tables at production pace (`--parts tables`): each beats every 5 s and
  plays a spin every 90 s (40 an hour, 3 events each); the CPU share of one core the ingester (`croupier floor serve`,
  its own process) takes over FLOOR_SECONDS, after a warm-up, and whether it kept up.

The store is SQLite in a temporary folder unless --store names another (postgresql://...) or
--postgres starts a throwaway PostgreSQL cluster (the machine's initdb/pg_ctl, as the tests do).
`--parts` picks what runs (default: ingest,latency,catch-up,table-cost).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

from croupier.floor.broker import LocalBroker
from croupier.floor.ingester import Ingester
from croupier.floor.publisher import TablePublisher
from croupier.floor.store import open_store
from croupier.journal.store import Journal
from croupier.rules.spin import Direction
from croupier.session import TableSession
from croupier.table.clock import FakeClock, SystemClock
from croupier.table.events import Ball, ResultRecorded, Source
from croupier.wheel.simulator import WheelSimulator

BALLS = (Ball(id="A", diameter_mm=Decimal("21")), Ball(id="B", diameter_mm=Decimal("21")))
FLOOR_EVENTS_PER_S = 50 * 3 / 60  # 50 tables, a spin a minute, ~3 events a spin


def play(session: TableSession, spins: int, clock=None, every_s: float = 60.0) -> None:
    """Sensor-only spins: launch, no more bets, result (as `croupier run --headless` records them)."""
    if session.state.spin == 1 and not session.state.profile:
        session.open_table(profile="pt-americana", minimum=5, colours=("red",), balls=BALLS, croupier="bench",
                           sensor_only=True, by="bench")
    direction = Direction.CLOCKWISE
    for n in range(spins):
        session.launch(direction=direction, source=Source.SENSOR, wheel_game=session.state.spin)
        session.close_bets(source=Source.SENSOR)
        session.sensor_result(number=(n * 7) % 37, wheel_game=session.state.spin, direction=direction)
        direction = direction.opposite()
        if clock is not None:
            clock.advance(seconds=every_s)


def journal(path: Path, spins: int) -> int:
    clock = FakeClock(datetime.now(timezone.utc) - timedelta(seconds=60 * spins))
    with TableSession.open(path, clock) as session:
        play(session, spins, clock)
        return session.seq


def publish_all(broker: LocalBroker, paths: dict[str, Path]) -> None:
    publishers = [TablePublisher(path, table, broker.url, poll_s=0.2).start() for table, path in paths.items()]
    heads = {table: Journal.open(path, read_only=True).head[0] for table, path in paths.items()}
    while any(p.published < heads[p.table_id] for p in publishers):
        time.sleep(0.2)
    for p in publishers:
        p.stop()


def enrol_all(store_url: str, paths: dict[str, Path]) -> None:
    """Each table's public key enrolled, as the floor's administrator does before it joins."""
    from croupier.floor.enrolment import enrol, table_public_key

    with open_store(store_url) as store:
        for table, path in paths.items():
            enrol(store, table, table_public_key(path))


def process_cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_s(root: int | None) -> float:
    """CPU seconds of a process and every process under it (a server's workers); 0 without one."""
    if root is None:
        return 0.0
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    tree, grown = {root}, True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grown = bool(more)
    total = 0.0
    for pid in tree:
        try:
            total += process_cpu_s(pid)
        except (OSError, ValueError, IndexError):  # ended meanwhile
            continue
    return total


STORE_SERVER: list[int] = []  # the PostgreSQL server's pid when the bench started it (--postgres)


def checkers_cpu_s() -> float:
    """CPU seconds of the processes that check signatures beside the ingester (croupier.floor.gate)."""
    from croupier.floor import gate

    pool = gate._POOL[0] if gate._POOL else None
    return sum(process_cpu_s(pid) for pid in (getattr(pool, "_processes", None) or {}))


def ingest_until(store_url: str, broker: LocalBroker, heads: dict[str, int], timeout: float = 600.0,
                 anchor_every_s: float = 60.0, cpu: dict | None = None, servers=None) -> float:
    """Seconds for a fresh ingester to store every table up to its head (each event's signature checked);
    into `cpu`, the CPU seconds its thread and its signature checkers used (the machine may be shared:
    the CPU cost says what a machine of its own would do), and as `first_s` and `first_events` when the
    store was first seen holding any of them and how many (the ingester's start behind it)."""
    with open_store(store_url) as store:
        ingester = Ingester(store, [broker.url], anchor_every_s=anchor_every_s, settle_memory=True)  # as `floor serve`
        loop = asyncio.new_event_loop()
        used: dict[str, float] = {}

        def run() -> None:
            start = time.thread_time()
            loop.run_until_complete(ingester.run())
            used["thread"] = time.thread_time() - start

        thread = threading.Thread(target=run, daemon=True)
        checkers_before, process_before = checkers_cpu_s(), os.times()
        started = time.perf_counter()
        thread.start()
        first: tuple[float, int] | None = None
        with open_store(store_url, read_only=True) as reader:
            while time.perf_counter() - started < timeout:
                stored = {table: int(seq) for table, seq in  # the heads alone: the polling takes little of what it measures
                          reader._execute("SELECT table_id, head_seq FROM floor_tables").fetchall()}
                if first is None and any(stored.get(table, 0) for table in heads):
                    first = (time.perf_counter() - started, sum(min(stored.get(t, 0), h) for t, h in heads.items()))
                if all(stored.get(table, 0) >= head for table, head in heads.items()):
                    break
                time.sleep(0.05)
        elapsed = time.perf_counter() - started
        checkers = checkers_cpu_s() - checkers_before
        process = sum(os.times()[:2]) - sum(process_before[:2])  # every thread: also the checkers' feeding, this polling
        servers_after = servers() if servers is not None else None  # before the store's connection ends with its worker
        ingester.stopping = True
        thread.join(10)
    if cpu is not None:
        cpu.update(used, checkers=checkers, process=process)
        cpu["first_s"], cpu["first_events"] = first or (0.0, 0)
        if servers_after is not None:
            cpu["servers"] = servers_after
    return elapsed


def bench_ingest(folder: Path, store_url: str, tables: int, spins: int) -> None:
    paths = {f"B{n}": folder / f"B{n}.db" for n in range(tables)}
    heads = {table: journal(path, spins) for table, path in paths.items()}
    enrol_all(store_url, paths)
    events = sum(heads.values())
    with LocalBroker(folder / "nats-ingest") as broker:
        started = time.perf_counter()
        publish_all(broker, paths)
        published = time.perf_counter() - started
        cpu: dict[str, float] = {}
        servers = lambda: (tree_cpu_s(STORE_SERVER[0] if STORE_SERVER else None),  # noqa: E731
                           tree_cpu_s(broker.process.pid if broker.process else None))
        before = servers()
        elapsed = ingest_until(store_url, broker, heads, cpu=cpu, servers=servers)
        store_cpu, broker_cpu = (after - earlier for after, earlier in zip(cpu.pop("servers"), before))
    rate = events / elapsed
    first_s, first_events = cpu["first_s"], int(cpu["first_events"])
    sustained = (events - first_events) / (elapsed - first_s) if elapsed > first_s and first_events < events else rate
    print(f"publish: {events} events of {tables} tables in {published:.1f} s ({events / published:.0f} events/s)")
    print(f"ingest:  {events} events in {elapsed:.1f} s = {rate:.0f} events/s over the whole run (from the "
          f"ingester's start); a floor of 50 tables at a spin a minute makes {FLOOR_EVENTS_PER_S:.1f} events/s: "
          f"headroom x{rate / FLOOR_EVENTS_PER_S:.0f}")
    print(f"ingest sustained: {sustained:.0f} events/s from its first commit seen to its last (the first, of "
          f"{first_events} events, seen {first_s:.2f} s after its start: connection, consumer, checking processes, "
          f"that batch)")
    if "thread" in cpu:
        print(f"ingest CPU: {1e6 * cpu['thread'] / events:.0f} us an event in the ingester's thread "
              f"({1e6 * cpu['process'] / events:.0f} us in its whole process, with the polling for the end), "
              f"{1e6 * cpu['checkers'] / events:.0f} us in its signature checkers, "
              f"{1e6 * store_cpu / events:.0f} us in the store's server{'' if STORE_SERVER else ' (not ours: not counted)'}, "
              f"{1e6 * broker_cpu / events:.0f} us in nats-server; {cpu['checkers'] + cpu['process'] + store_cpu + broker_cpu:.1f} "
              f"CPU s over {elapsed:.1f} s on {os.cpu_count()} cores")


def when(value) -> datetime:
    """A time as SQLite (ISO 8601 text) or PostgreSQL (timestamptz) gives it."""
    return value if isinstance(value, datetime) else datetime.fromisoformat(value)


def bench_latency(folder: Path, store_url: str, events: int = 300) -> None:
    path = folder / "L.db"
    with LocalBroker(folder / "nats-latency") as broker, TableSession.open(path, SystemClock()) as session:
        play(session, 1)
        enrol_all(store_url, {"L": path})
        publisher = TablePublisher(path, "L", broker.url)
        session.subscribe(publisher.wake)
        publisher.start()
        with open_store(store_url) as store:
            ingester = Ingester(store, [broker.url])
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_until_complete, args=(ingester.run(),), daemon=True)
            thread.start()
            first = session.seq
            with open_store(store_url, read_only=True) as reader:
                def stored(seq: int) -> None:
                    while reader.head("L")[0] < seq:
                        time.sleep(0.05)

                stored(first)  # both ends connected (nats-py's imports done) first: a start is not a delay
                for _ in range(events // 3):
                    play(session, 1)
                    time.sleep(0.1)
                stored(session.seq)
                rows = reader._execute("SELECT body, received FROM floor_events WHERE table_id = 'L' AND seq > ?",
                                       (first,)).fetchall()
            ingester.stopping = True
            thread.join(10)
        publisher.stop()
    import json

    delays = sorted((when(received) - when(json.loads(body)["time"])).total_seconds() * 1000 for body, received in rows)
    p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))]
    print(f"table to store: {len(delays)} events, p50 {statistics.median(delays):.1f} ms, p99 {p99:.1f} ms")


def bench_catch_up(folder: Path, store_url: str, hours: int) -> None:
    path = folder / f"C{hours}.db"
    head = journal(path, 60 * hours)  # a spin a minute while the link was down
    with LocalBroker(folder / f"nats-catch-up-{hours}") as broker:
        enrol_all(store_url, {f"C{hours}": path})
        started = time.perf_counter()
        publisher = TablePublisher(path, f"C{hours}", broker.url).start()
        elapsed = ingest_until(store_url, broker, {f"C{hours}": head})
        publisher.stop()
    print(f"catch-up after {hours} h offline: {head} events on the floor {elapsed:.2f} s after the link came back")


def run_table(folder: Path, seconds: float, floor_url: str | None, name: str) -> tuple[float, int]:
    wheel = WheelSimulator("cammegh-ss2", speed=25, seed=3, link_path=folder / f"wheel-{name}")
    device = wheel.start()
    argv = [sys.executable, "-m", "croupier", "run", "--headless", "--db", str(folder / f"{name}.db"),
            "--profile", "pt-americana", "--wheel", f"cammegh-ss2:{device}"]
    if floor_url:
        argv += ["--floor", floor_url, "--table-id", name]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(seconds)
    proc.terminate()
    _, _, usage = os.wait4(proc.pid, 0)
    wheel.stop()
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024


def bench_table_cost(folder: Path, seconds: float) -> None:
    alone_cpu, alone_mb = run_table(folder, seconds, None, "alone")
    with LocalBroker(folder / "nats-cost") as broker:
        floor_cpu, floor_mb = run_table(folder, seconds, broker.url, "floor")
    print(f"table cost over {seconds:.0f} s of games at 25x speed: CPU {alone_cpu:.2f} s alone, {floor_cpu:.2f} s "
          f"publishing (+{floor_cpu - alone_cpu:.2f} s, {100 * (floor_cpu - alone_cpu) / seconds:.1f} % of a core); "
          f"peak memory {alone_mb} MB alone, {floor_mb} MB publishing (+{floor_mb - alone_mb} MB)")


def bench_floor_tables(folder: Path, store_url: str, tables: int, seconds: float, warm_up_s: float = 30.0,
                       spin_every_s: float = 90.0) -> None:
    """A floor of `tables` tables at a spin every `spin_every_s` (40 an hour), published as each table's publisher does (one
    template journal's rows under every table id: each table's chain checks), heartbeats every 5 s."""
    from croupier.floor.wire import alive_subject, connect, ensure_streams, events_subject, message_id
    from croupier.floor.wire import Link as WireLink

    template = folder / "template.db"
    journal(template, 40)
    with Journal.open(template, read_only=True) as source:
        rows = [WireLink(r.seq, r.time, r.kind, r.body, r.prev_hash, r.hash, r.mac, sig=r.sig or "")
                for r in source.rows()]
    enrol_all(store_url, {f"F{t}": template for t in range(tables)})  # one key pair: the template's
    spins = [i + 1 for i, link in enumerate(rows) if link.kind == ResultRecorded.kind]  # a spin's rows end there
    with LocalBroker(folder / "nats-tables") as broker:
        ingester = subprocess.Popen([sys.executable, "-m", "croupier", "floor", "serve", "--nats", broker.url,
                                     "--store", store_url, "--signing-key", str(folder / "floor-signing.key")],
                                    stdout=subprocess.DEVNULL,
                                    stderr=open(folder / "ingester.log", "wb"))
        stop = threading.Event()
        sent = {"events": 0, "beats": 0}

        async def generate() -> None:
            nc = await connect([broker.url])
            await ensure_streams(nc.jetstream())  # as each table's publisher does before its first event
            start = time.monotonic()
            done = dict.fromkeys(range(tables), 0)  # spins published per table
            beat_at = {t: start + 5.0 * t / tables for t in range(tables)}
            while not stop.is_set():
                now = time.monotonic()
                for t in range(tables):
                    due = int((now - start) / spin_every_s + t / tables)  # spins due, tables spread over the interval
                    while done[t] < min(due + 1, len(spins)):
                        first = spins[done[t] - 1] if done[t] else 0
                        for link in rows[first:spins[done[t]]]:
                            await nc.publish(events_subject(f"F{t}"), link.encode(),
                                             headers={"Nats-Msg-Id": message_id(f"F{t}", link.seq, link.hash)})
                            sent["events"] += 1
                        done[t] += 1
                    if now >= beat_at[t]:
                        await nc.publish(alive_subject(f"F{t}"), b"0")
                        sent["beats"] += 1
                        beat_at[t] = now + 5.0
                await nc.flush()
                await asyncio.sleep(0.2)
            await nc.close()

        generator = threading.Thread(target=asyncio.run, args=(generate(),), daemon=True)
        generator.start()
        time.sleep(warm_up_s)
        tick = os.sysconf("SC_CLK_TCK")

        def cpu_s() -> float:
            fields = Path(f"/proc/{ingester.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / tick

        before, sent_before, started = cpu_s(), dict(sent), time.perf_counter()
        time.sleep(seconds)
        used, elapsed = cpu_s() - before, time.perf_counter() - started
        events = sent["events"] - sent_before["events"]
        beats = sent["beats"] - sent_before["beats"]
        stop.set()
        generator.join(10)
        time.sleep(3)
        with open_store(store_url, read_only=True) as reader:
            stored = sum(t.head_seq for t in reader.tables() if t.table_id.startswith("F"))
        ingester.terminate()
        ingester.wait(15)
        problems = [line for line in (folder / "ingester.log").read_text().splitlines() if "WARNING" in line
                    or "ERROR" in line]
    if problems:
        print(f"the ingester said {len(problems)} warnings or errors, first: {problems[0]}")
    print(f"{tables} tables at a spin every {spin_every_s:.0f} s: {events / elapsed:.0f} events/s and {beats / elapsed:.0f} heartbeats/s; "
          f"the ingester used {100 * used / elapsed:.1f} % of a core over {elapsed:.0f} s "
          f"({stored} of {sent['events']} events stored 3 s after the last)")


VIEW_PROBE = """
import resource, sys, time
from croupier.floor.store import open_store
from croupier.floor.tiles import FloorProjection
url, moving = sys.argv[1], int(sys.argv[2])
with open_store(url, read_only=True) as store, open_store(url) as writer:
    projection = FloorProjection(store)
    started = time.perf_counter(); picture = projection.picture(); first = time.perf_counter() - started
    idle, moved, moved_cpu = [], [], []
    for n in range(10):
        started = time.perf_counter(); projection.picture(); idle.append(time.perf_counter() - started)
        with writer._transaction():  # `moving` tables stored an event: their heads and summaries moved
            for t in range(n * moving, (n + 1) * moving):
                for table in ("floor_tables SET head_seq = head_seq", "floor_summaries SET seq = seq"):
                    writer._execute(f"UPDATE {table} + 1 WHERE table_id = ?", (f"V{t % len(picture.tiles)}",))
        started, cpu = time.perf_counter(), time.process_time()
        projection.picture()
        moved.append(time.perf_counter() - started); moved_cpu.append(time.process_time() - cpu)
median = lambda values: sorted(values)[len(values) // 2]
print(len(picture.tiles), first, median(idle), max(idle), median(moved), max(moved), median(moved_cpu),
      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def bench_view(folder: Path, store_url: str, tables: int, spins: int, events_spins: int = 1000) -> None:
    """The floor view's first picture and its refreshes (in a process of its own, for its memory) over a
    store of `tables` tables whose summaries count `spins` spins each: one template journal of
    `events_spins` spins stored under every id, its summary's watch carried on to `spins` (the view
    reads the summaries, never the events: their number does not change what it reads)."""
    import random

    from croupier.floor.store import Batch
    from croupier.floor.summaries import fold
    from croupier.floor.wire import Link as WireLink

    template = folder / "view-template.db"
    journal(template, events_spins)
    with Journal.open(template, read_only=True) as source:
        rows = [WireLink(r.seq, r.time, r.kind, r.body, r.prev_hash, r.hash, r.mac) for r in source.rows()]
    summary = fold([(row.seq, row.kind, row.body) for row in rows])
    numbers = random.Random(7)
    while summary.watch.spins < spins:
        summary.watch.add(numbers.randrange(37))
    tile, state = summary.tile_text(), summary.state_text()
    with open_store(store_url) as store:
        for t in range(tables):
            store.append_many([Batch(f"V{t}", rows, (0, "0" * 64), tile=tile, state=state)], rows[-1].time)
    moving = max(1, tables // 10)
    out = subprocess.run([sys.executable, "-c", VIEW_PROBE, store_url, str(moving)], capture_output=True, text=True,
                         check=True)
    shown, first, idle, idle_max, moved, moved_max, moved_cpu, peak_mb = out.stdout.split()
    ms = lambda seconds: f"{1000 * float(seconds):.0f} ms"  # noqa: E731
    print(f"floor view over {tables} tables x {spins} spins (summaries; {tables * len(rows)} events stored): first "
          f"picture {float(first):.2f} s; a refresh (median, max of 10) with nothing new {ms(idle)}, {ms(idle_max)}; "
          f"with {moving} tables moved {ms(moved)}, {ms(moved_max)} ({ms(moved_cpu)} of the view's CPU); "
          f"peak memory {peak_mb} MB ({shown} tiles)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--spins", type=int, default=200)
    parser.add_argument("--store", help="a PostgreSQL URL (default: SQLite files in a temporary folder)")
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL cluster as the store")
    parser.add_argument("--run-seconds", type=float, default=30.0)
    parser.add_argument("--parts", default="ingest,latency,catch-up,table-cost",
                        help="comma-separated: ingest, latency, catch-up, table-cost, tables, view")
    parser.add_argument("--floor-tables", type=int, default=3000)
    parser.add_argument("--floor-seconds", type=float, default=60.0)
    parser.add_argument("--view-tables", type=int, default=300)
    parser.add_argument("--view-spins", type=int, default=525_600, help="spins each summary counts (a year)")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    postgres = None
    if args.postgres:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "floor"))
        from floor_kit import ThrowawayPostgres

        postgres = ThrowawayPostgres().start()
        args.store = postgres.url
        STORE_SERVER.append(int((postgres.data / "postmaster.pid").read_text().split()[0]))
    try:
        with tempfile.TemporaryDirectory(prefix="bench-floor-") as tmp:
            folder = Path(tmp)
            url = lambda name: args.store or str(folder / f"{name}.db")  # noqa: E731
            if args.store:
                print("note: a PostgreSQL store should be empty: each part uses its own table ids")
            if "ingest" in parts:
                bench_ingest(folder, url("ingest"), args.tables, args.spins)
            if "latency" in parts:
                bench_latency(folder, url("latency"))
            if "catch-up" in parts:
                bench_catch_up(folder, url("catch-up-1"), 1)
                bench_catch_up(folder, url("catch-up-24"), 24)
            if "table-cost" in parts:
                bench_table_cost(folder, args.run_seconds)
            if "tables" in parts:
                bench_floor_tables(folder, url("tables"), args.floor_tables, args.floor_seconds)
            if "view" in parts:
                bench_view(folder, url("view"), args.view_tables, args.view_spins)
    finally:
        if postgres is not None:
            postgres.stop()


if __name__ == "__main__":
    main()
