"""The transport as a casino deploys it: a real nats-server with TLS (a throwaway CA) and a login per
program, each allowed only its own subjects. A table reaches the floor with its own login; it cannot
write another table's subject nor an anchor; nobody gets in without a login or past the CA; a
password in a URL is never printed."""
from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys

import pytest

from croupier.floor.broker import LocalBroker
from croupier.floor.store import open_store
from croupier.floor.wire import (ANCHORS_STREAM, EVENTS_STREAM, Access, AccessError, access_options, anchor_subject,
                                 connect, events_subject)
from croupier.journal.store import Journal
from croupier.wheel.simulator import WheelSimulator

from floor_kit import (enrol_journal, environment, floor_key, log_text, secured_broker_config, start_ingester,
                       stop, wait_for)

pytest.importorskip("nats", reason="nats-py comes with the floor extra: pip install '.[floor]'")


@pytest.fixture
def secured(tmp_path):
    config, logins = secured_broker_config(tmp_path, ("T1", "T2"))
    broker = LocalBroker(tmp_path / "nats", log_file=tmp_path / "nats.log", config=config, scheme="tls").start()
    yield broker, logins, tmp_path / "ca.pem"
    broker.stop()


def attempt(url: str, access: Access | None, action) -> BaseException | None:
    """Run `action(js)` on a connection made with `access`; the exception it ends with, if any."""
    async def run():
        nc = await connect([url], access)
        try:
            await action(nc.jetstream(timeout=2))
        finally:
            await nc.close()

    try:
        asyncio.run(run())
    except BaseException as exc:  # noqa: BLE001 - what failed is the answer
        return exc
    return None


def test_a_table_with_its_own_login_over_tls_reaches_the_floor_and_writes_nothing_else(tmp_path, secured):
    broker, logins, ca = secured
    store = str(tmp_path / "floor.db")
    db = tmp_path / "T1" / "journal.db"
    db.parent.mkdir()
    enrol_journal(store, db, "T1")
    wheel = WheelSimulator("cammegh-ss2", speed=25, seed=1, link_path=tmp_path / "wheel")
    with open(tmp_path / "table.log", "wb") as table_log, open(tmp_path / "ingester.log", "wb") as ingester_log:
        table = subprocess.Popen(
            [sys.executable, "-m", "croupier", "run", "--headless", "--db", str(db), "--profile", "pt-americana",
             "--wheel", f"cammegh-ss2:{wheel.start()}", "--floor", broker.url, "--table-id", "T1",
             "--floor-key", str(floor_key(tmp_path).with_suffix(".pub")), "--floor-credentials", str(logins["T1"]),
             "--floor-ca", str(ca)], stdout=subprocess.DEVNULL, stderr=table_log, env=environment())
        ingester = start_ingester(broker.url, store, ingester_log, credentials=logins["floor"], ca=ca)
        try:
            def rows(source) -> list[int]:
                try:
                    if source == "journal":
                        with Journal.open(db, read_only=True) as journal:
                            return [row.seq for row in journal.rows()]
                    with open_store(store, read_only=True) as floor:
                        return [link.seq for link in floor.links("T1")]
                except Exception:  # not made yet
                    return []

            assert wait_for(lambda: len(rows("floor")) >= 5, timeout=60), log_text(tmp_path / "ingester.log")
            t1 = Access(logins["T1"], ca)
            # T1's login cannot write T2's record, nor an anchor, nor touch the streams.
            denied = [attempt(broker.url, t1, lambda js: js.publish(events_subject("T2"), b"{}")),
                      attempt(broker.url, t1, lambda js: js.publish(anchor_subject("T1"), b"{}")),
                      attempt(broker.url, t1, lambda js: js.delete_stream(EVENTS_STREAM)),
                      attempt(broker.url, t1, lambda js: js.purge_stream(ANCHORS_STREAM))]
            assert all(exc is not None for exc in denied), denied
            wheel.stop()
            assert wait_for(lambda: rows("floor") == rows("journal"), timeout=40, every=0.5)
            anchored = wait_for(lambda: any(True for _ in Journal.open(db, read_only=True).records(["floor-anchored"])),
                                timeout=30)
            assert anchored, "the floor's signed receipts did not come back over TLS"
        finally:
            stop(table)
            stop(ingester)
            wheel.stop()
    with open_store(store, read_only=True) as floor:
        assert [t.table_id for t in floor.tables()] == ["T1"] and floor.refusals() == []
    assert "nats: Permissions Violation" not in log_text(tmp_path / "table.log")  # the table asked for nothing else


def test_nobody_gets_in_without_a_login_or_past_the_casinos_ca(tmp_path, secured):
    broker, logins, ca = secured

    async def look(js):
        await js.stream_info(EVENTS_STREAM)

    assert attempt(broker.url, Access(None, ca), look) is not None  # no login
    assert attempt(broker.url, Access(logins["T1"], None), look) is not None  # the system's CAs do not know it
    (tmp_path / "wrong.creds").write_text('user = "T1"\npassword = "guess"\n')
    (tmp_path / "wrong.creds").chmod(0o600)
    assert attempt(broker.url, Access(tmp_path / "wrong.creds", ca), look) is not None


def test_a_credentials_file_others_can_read_is_refused_before_anything_starts(tmp_path, secured):
    broker, logins, ca = secured
    os.chmod(logins["T1"], 0o644)
    with pytest.raises(AccessError, match=r"mode 0644.*chmod 600"):
        access_options(Access(logins["T1"], ca))
    done = subprocess.run([sys.executable, "-m", "croupier", "run", "--headless", "--db", str(tmp_path / "j.db"),
                           "--profile", "pt-americana", "--wheel", "cammegh-ss2:/dev/null", "--floor", broker.url,
                           "--table-id", "T1", "--floor-credentials", str(logins["T1"])],
                          capture_output=True, text=True, env=environment(), timeout=60)
    assert done.returncode == 2 and "chmod 600" in done.stderr and not (tmp_path / "j.db").exists()


def test_a_password_in_a_url_is_never_printed(tmp_path, broker):
    with open(tmp_path / "ingester.log", "wb") as log:
        ingester = start_ingester("nats://floor:S3CRET-PASSWORD@" + broker.url.split("://")[1], str(tmp_path / "floor.db"),
                                  log)
        try:
            assert wait_for(lambda: "connected to" in log_text(tmp_path / "ingester.log"), timeout=30)
        finally:
            stop(ingester)
    text = log_text(tmp_path / "ingester.log")
    assert "S3CRET" not in text and "nats://floor:***@127.0.0.1" in text
    done = subprocess.run([sys.executable, "-m", "croupier", "run", "--headless", "--db", str(tmp_path / "j.db"),
                           "--profile", "pt-americana", "--wheel", "cammegh-ss2:/dev/null",
                           "--floor", "nats://T1:S3CRET@127.0.0.1:4222", "--table-id", "T1"],
                          capture_output=True, text=True, env=environment(), timeout=60)
    assert done.returncode == 2 and "S3CRET" not in done.stderr + done.stdout and "credentials" in done.stderr


def test_doctor_asks_the_real_broker_with_the_tables_login(tmp_path, secured):
    from croupier.doctor import SystemProbes

    broker, logins, ca = secured
    assert SystemProbes().floor_receipt(broker.url, Access(logins["T1"], ca), "T1") == (None, None)
    (tmp_path / "wrong.creds").write_text('user = "T1"\npassword = "S3CRET-guess"\n')
    (tmp_path / "wrong.creds").chmod(0o600)
    problem, anchor = SystemProbes().floor_receipt(broker.url, Access(tmp_path / "wrong.creds", ca), "T1")
    assert problem and anchor is None and "S3CRET" not in problem


def test_a_broker_that_ends_a_tls_connection_leaves_no_warning_in_the_log(secured, caplog):
    """asyncio's warning that nats-py's stream asks to stay half open over TLS said nothing wrong, yet
    it filled the ingester's and doctor's logs each time the broker went away."""
    broker, logins, ca = secured

    async def run():
        nc = await connect([broker.url], Access(logins["T1"], ca))
        try:
            broker.stop()
            for _ in range(50):
                await asyncio.sleep(0.05)
                if nc.is_closed or not nc.is_connected:
                    break
            await asyncio.sleep(0.2)
        finally:
            await nc.close()

    with caplog.at_level(logging.WARNING, logger="asyncio"):
        asyncio.run(run())
    assert not [r for r in caplog.records if "eof_received" in r.getMessage()]


def test_a_broker_that_is_not_there_is_said_at_once_not_after_two_minutes_of_tries():
    """nats-py tried a first connection 60 times, 2 s apart, whatever allow_reconnect said: the
    ingester said "broker unreachable" (and a table that its link was down) two minutes late."""
    async def run() -> BaseException:
        with pytest.raises(Exception) as raised:
            await asyncio.wait_for(connect(["nats://127.0.0.1:1", "nats://127.0.0.1:2"]), 60)
        return raised.value

    problem = asyncio.run(run())
    assert not isinstance(problem, asyncio.TimeoutError), "still trying after a minute"
    assert "no servers" in str(problem).lower()


def test_the_login_gives_the_server_a_bcrypt_hash_and_the_password_only_to_its_file(tmp_path):
    """`croupier floor login` writes the password to the program's file (0600) and prints the server's
    entry with the password's bcrypt hash (the broker above checks logins against such hashes)."""
    import json

    import bcrypt

    from croupier.floor.wire import read_credentials

    creds = tmp_path / "T7.creds"
    result = subprocess.run([sys.executable, "-m", "croupier", "floor", "login", "--table", "T7", "--file", str(creds)],
                            capture_output=True, text=True, timeout=120, env=environment())
    assert result.returncode == 0, result.stderr
    entry = json.loads(result.stdout.splitlines()[-1])
    user, password = read_credentials(creds)
    assert (entry["user"], user) == ("T7", "T7") and creds.stat().st_mode & 0o777 == 0o600
    assert password not in result.stdout and entry["password"].startswith("$2b$11$")
    assert bcrypt.checkpw(password.encode(), entry["password"].encode())
