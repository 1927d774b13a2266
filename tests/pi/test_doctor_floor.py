"""`croupier doctor` on a floor-linked table: the [floor] URL and table id, the credentials file and
its mode, the casino's CA, the floor's key, the table's signing key, the broker answering, the key
enrolled (the floor's signed receipt names an event of this journal)."""
from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from croupier.config import load_config
from croupier.doctor import run_checks
from croupier.floor.logins import write_credentials
from croupier.floor.wire import Anchor
from croupier.journal.signing import default_signing_key_path, public_path, sign_anchor, signing_key_for

from test_doctor import CROUPIER, FakeMachine, node

sys.path.insert(0, str(Path(__file__).parents[1] / "journal"))
sys.path.insert(0, str(Path(__file__).parents[1] / "floor"))
from floor_kit import throwaway_ca  # noqa: E402
from journal_kit import write_shift  # noqa: E402


class FloorMachine(FakeMachine):
    receipt: tuple = (None, None)

    def floor_receipt(self, url, access, table_id):
        self.asked = (url, access, table_id)
        return self.receipt


@pytest.fixture
def floor_table(tmp_path):
    """A table whose journal, keys, login and CA are in place, and a machine that knows its files."""
    journal = tmp_path / "state" / "journal.db"
    journal.parent.mkdir()
    write_shift(journal).close()
    creds = tmp_path / "floor.creds"
    write_credentials(creds, "T7")
    ca, _cert, _key = throwaway_ca(tmp_path)
    floor_private = tmp_path / "floor-signing.key"
    floor_key = signing_key_for(floor_private, create=True)
    config = tmp_path / "croupier.toml"
    config.write_text(f'[table]\nid = "T7"\n[keypad]\nkind = "gpio"\n[journal]\npath = "{journal}"\n'
                      f'[floor]\nurl = "tls://floor1.local:4222"\ncredentials = "{creds}"\nca = "{ca}"\n'
                      f'floor_key = "{public_path(floor_private)}"\n')
    machine = FloorMachine()
    machine.modules.add("nats")
    for path in (journal.parent, journal, default_signing_key_path(journal), creds, journal.with_name("table.key")):
        machine.files[str(path)] = node(stat.S_IFDIR if path.is_dir() else stat.S_IFREG,
                                        0o750 if path.is_dir() else 0o600, CROUPIER, uid=CROUPIER)
    from croupier.journal.store import Journal

    with Journal.open(journal, read_only=True) as opened:
        seq, digest = opened.head
    when = "2026-01-01T00:00:00.000+00:00"
    machine.receipt = (None, Anchor(seq, digest, when, sign_anchor(floor_key, "T7", seq, digest, when)))
    return str(config), machine, creds


def floor_findings(config, machine):
    return {f.check: f for f in run_checks(config, machine) if f.check.startswith(("floor", "signing"))}


def test_a_table_enrolled_at_the_floor_passes_every_floor_check(floor_table):
    config, machine, _creds = floor_table
    found = floor_findings(config, machine)
    assert set(found) == {"floor", "floor login", "floor CA", "floor key", "signing key", "floor broker",
                          "floor enrolment"}
    assert all(f.status == "ok" for f in found.values()), found
    assert "user T7" in found["floor login"].message and "fingerprint" in found["signing key"].message
    assert "enrolled" in found["floor enrolment"].message
    assert machine.asked[2] == "T7" and "@" not in machine.asked[0]


def test_a_credentials_file_others_can_read_fails_with_its_fix(floor_table):
    config, machine, creds = floor_table
    machine.files[str(creds)] = node(stat.S_IFREG, 0o644, CROUPIER, uid=CROUPIER)
    finding = floor_findings(config, machine)["floor login"]
    assert finding.status == "fail" and "chmod 600" in finding.fix
    assert "floor broker" not in floor_findings(config, machine)  # not asked with a login that leaks


@pytest.mark.parametrize("check", ["floor key", "floor CA"])
def test_a_public_file_only_root_can_read_fails_though_root_runs_doctor(floor_table, check):
    """`sudo croupier doctor` reads a file copied in as root's 0600; the table, as its user, cannot."""
    config, machine, _creds = floor_table
    floor = load_config(config).floor
    path = floor.floor_key if check == "floor key" else floor.ca
    machine.files[str(path)] = node(stat.S_IFREG, 0o600, 0, uid=0)
    finding = floor_findings(config, machine)[check]
    assert finding.status == "fail" and f"cannot read {path} (mode 0600)" in finding.message
    assert finding.fix == f"`sudo chmod 644 {path}`"


def test_a_broker_that_does_not_answer_fails(floor_table):
    config, machine, _creds = floor_table
    machine.receipt = ("ConnectionRefusedError", None)
    finding = floor_findings(config, machine)["floor broker"]
    assert finding.status == "fail" and "does not answer" in finding.message


def test_a_key_not_enrolled_yet_is_said_with_the_command(floor_table):
    config, machine, _creds = floor_table
    machine.receipt = (None, None)
    finding = floor_findings(config, machine)["floor enrolment"]
    assert finding.status == "warn" and "croupier floor enrol" in finding.fix


def test_a_receipt_the_floor_did_not_sign_fails(floor_table):
    config, machine, _creds = floor_table
    anchor = machine.receipt[1]
    machine.receipt = (None, Anchor(anchor.seq, anchor.hash, anchor.time, "00" * 64))
    assert floor_findings(config, machine)["floor enrolment"].status == "fail"


def test_without_a_floor_url_there_is_one_line(tmp_path):
    config = tmp_path / "croupier.toml"
    config.write_text('[keypad]\nkind = "gpio"\n[journal]\npath = "/var/lib/croupier/journal.db"\n')
    found = floor_findings(str(config), FloorMachine())
    assert list(found) == ["floor"] and found["floor"].status == "ok"


def test_every_message_starts_in_one_column_whatever_its_check_is_named(floor_table):
    from croupier.doctor import report

    config, machine, _creds = floor_table
    lines = [line for line in report(run_checks(config, machine)).splitlines() if line[:5].strip() in ("ok", "warn", "FAIL")]
    width = max(len(f.check) for f in run_checks(config, machine))
    assert {line[6 + width] for line in lines} == {" "}  # a space after the longest name, in every line
    assert all(line[6 + width + 1] != " " for line in lines)  # and the message right after it
