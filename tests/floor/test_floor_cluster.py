"""Three NATS nodes as production runs them: clients over TLS with a login each, the routes between
the nodes over TLS with the casino's CA and a route login, each stream on all three. A node is
stopped while two tables publish: every event of both still reaches the floor, each copy equal to
its table's `verify` head; a node without the route login cannot join."""
from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from croupier.floor.broker import LocalBroker, free_port
from croupier.floor.store import open_store
from croupier.journal.store import Journal
from croupier.journal.verify import verify
from croupier.wheel.simulator import WheelSimulator

from floor_kit import enrol_journal, environment, floor_key, log_text, secured_broker_config, start_ingester, stop, \
    wait_for

pytest.importorskip("nats", reason="nats-py comes with the floor extra: pip install '.[floor-server]'")

TABLES = ("T1", "T2")


def cluster_configs(folder: Path, base: Path, routes: list[int], password: str = "route-secret") -> list[Path]:
    """Each node's configuration: the secured one, plus its name and the cluster block (TLS routes,
    verified against the CA both ways, and a route login)."""
    configs = []
    for n, port in enumerate(routes):
        others = ", ".join(f"nats-route://route:{password}@127.0.0.1:{other}" for other in routes if other != port)
        config = folder / f"node{n}.conf"
        config.write_text(base.read_text() + (
            f'server_name: floor{n}\n'
            f'cluster {{\n  name: croupier-floor\n  listen: 127.0.0.1:{port}\n'
            f'  tls {{ cert_file: "{folder / "server.pem"}", key_file: "{folder / "server-key.pem"}", '
            f'ca_file: "{folder / "ca.pem"}", verify: true }}\n'
            f'  authorization {{ user: route, password: "{password}" }}\n'
            f'  routes: [{others}]\n}}\n'))
        config.chmod(0o600)
        configs.append(config)
    return configs


def table(db: Path, device: str, urls: str, table_id: str, creds: Path, ca: Path, log) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "croupier", "run", "--headless", "--db", str(db), "--profile", "pt-americana",
         "--wheel", f"cammegh-ss2:{device}", "--floor", urls, "--table-id", table_id,
         "--floor-key", str(floor_key(db.parent.parent).with_suffix(".pub")), "--floor-credentials", str(creds),
         "--floor-ca", str(ca)], stdout=subprocess.DEVNULL, stderr=log, env=environment())


def test_a_node_of_a_tls_routed_cluster_stops_while_tables_publish_and_nothing_is_lost(tmp_path):
    base, logins = secured_broker_config(tmp_path, TABLES)
    routes = [free_port() for _ in range(3)]
    nodes = [LocalBroker(tmp_path / f"nats{n}", log_file=tmp_path / f"nats{n}.log", config=config, scheme="tls")
             for n, config in enumerate(cluster_configs(tmp_path, base, routes))]
    store = str(tmp_path / "floor.db")
    dbs = {t: tmp_path / t / "journal.db" for t in TABLES}
    wheels = {t: WheelSimulator("cammegh-ss2", speed=25, seed=n, link_path=tmp_path / f"wheel-{t}")
              for n, t in enumerate(TABLES)}
    logs = {name: open(tmp_path / f"{name}.log", "wb") for name in (*TABLES, "ingester")}
    procs: list[subprocess.Popen] = []
    try:
        for node in nodes:
            node.start()
        urls = ",".join(node.url for node in nodes)
        assert wait_for(lambda: all("route connection created" in log_text(tmp_path / f"nats{n}.log").lower()
                                    for n in range(3)), timeout=30), log_text(tmp_path / "nats0.log")
        for t, db in dbs.items():
            db.parent.mkdir()
            enrol_journal(store, db, t)
        procs.append(start_ingester(urls, store, logs["ingester"], 0.5, "--replicas", "3",
                                    credentials=logins["floor"], ca=tmp_path / "ca.pem"))
        procs += [table(db, wheels[t].start(), urls, t, logins[t], tmp_path / "ca.pem", logs[t])
                  for t, db in dbs.items()]

        def stored(t: str) -> list[tuple[int, str]]:
            try:
                with open_store(store, read_only=True) as floor:
                    return [(link.seq, link.hash) for link in floor.links(t)]
            except Exception:  # not made yet
                return []

        def journal(t: str) -> list[tuple[int, str]]:
            try:
                with Journal.open(dbs[t], read_only=True) as opened:
                    return [(row.seq, row.hash) for row in opened.rows()]
            except Exception:  # not made yet
                return []

        assert wait_for(lambda: all(len(stored(t)) >= 5 for t in TABLES), timeout=90), \
            log_text(tmp_path / "ingester.log")
        nodes[0].stop()  # while both tables play on
        at_stop = {t: len(journal(t)) for t in TABLES}
        assert wait_for(lambda: all(len(stored(t)) > at_stop[t] + 3 for t in TABLES), timeout=90), \
            log_text(tmp_path / "ingester.log")
        for wheel in wheels.values():
            wheel.stop()
        time.sleep(2)
        assert wait_for(lambda: all(stored(t) == journal(t) for t in TABLES), timeout=60, every=0.5), \
            {t: (len(stored(t)), len(journal(t))) for t in TABLES}
        assert [stop(proc) for proc in procs[1:]] == [0, 0]  # the tables end (their last events published)
        assert wait_for(lambda: all(stored(t) == journal(t) for t in TABLES), timeout=30, every=0.5), \
            {t: (len(stored(t)), len(journal(t))) for t in TABLES}
    finally:
        for proc in procs:
            stop(proc)
        for wheel in wheels.values():
            wheel.stop()
        for node in nodes:
            node.stop()
        for log in logs.values():
            log.close()
    with open_store(store, read_only=True) as floor:
        for t, db in dbs.items():
            with Journal.open(db, read_only=True) as opened:
                verdict = verify(opened)
            assert verdict.intact, verdict.problem
            record = floor.table(t)
            assert (record.head_seq, record.head_hash) == verdict.head
        assert floor.alarms(open_only=True) == [] or all(a.kind != "chain" for a in floor.alarms())
        assert floor.refusals() == []


def test_a_node_without_the_route_login_is_not_let_into_the_cluster(tmp_path):
    base, _logins = secured_broker_config(tmp_path, TABLES)
    routes = [free_port() for _ in range(2)]
    good, intruder = cluster_configs(tmp_path, base, routes)
    intruder.write_text(intruder.read_text().replace("route-secret", "guessed"))  # its login, and what it asks
    nodes = [LocalBroker(tmp_path / f"nats{n}", log_file=tmp_path / f"nats{n}.log", config=config, scheme="tls")
             for n, config in enumerate((good, intruder))]
    try:
        for node in nodes:
            node.start()
        def routes(state: str) -> set[str]:
            return set(re.findall(rf"rid:(\d+) - {state}", log_text(tmp_path / "nats0.log")))

        assert wait_for(lambda: "authentication error" in log_text(tmp_path / "nats0.log"), timeout=20), \
            log_text(tmp_path / "nats0.log")
        # Each route the intruder opened was closed for its login: none stays.
        assert wait_for(lambda: routes("route connection created") <= routes("router connection closed: "
                                                                             "authentication failure"), timeout=10)
    finally:
        for node in nodes:
            node.stop()
