"""`croupier floor status` and `check` as the pit boss runs them, and the table's floor options."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from croupier.cli import main
from croupier.config import ConfigError, load_config
from croupier.floor.ingester import Ingester
from croupier.floor.store import open_store
from croupier.journal.store import Journal
from croupier.journal.verify import verify

sys.path.insert(0, str(Path(__file__).parents[1] / "journal"))
from journal_kit import raw, recompute_chain, write_shift  # noqa: E402
from test_floor_store import enrolled, messages, storing  # noqa: E402


@pytest.fixture
def floor(tmp_path):
    db = tmp_path / "T1.db"
    write_shift(db).close()
    url = str(tmp_path / "floor.db")
    with open_store(url) as store:
        Ingester(enrolled(store, db), []).ingest(messages(db, "T1"))
        seq, digest = store.head("T1")
        store.record_anchor("T1", seq, digest, "2026-01-01T00:00:00+00:00")
        storing(store)
    return db, url


def test_status_json_gives_each_tables_head_chain_anchor_and_lag(floor, capsys):
    db, url = floor
    assert main(["floor", "status", "--store", url, "--json"]) == 0
    (table,) = json.loads(capsys.readouterr().out)["tables"]
    with Journal.open(db, read_only=True) as journal:
        head = verify(journal).head
    assert (table["table"], table["last_seq"], table["head_hash"]) == ("T1", *head)
    assert table["chain"] == "intact" and table["first_bad_event"] is None
    assert table["last_anchor"]["seq"] == head[0] and table["lag_s"] is not None


def test_check_passes_an_untouched_journal_and_fails_a_cut_one(floor, capsys):
    db, url = floor
    assert main(["floor", "check", "--table", "T1", "--db", str(db), "--store", url]) == 0
    assert "matches the floor's copy" in capsys.readouterr().out
    with raw(db) as conn:  # events cut from the end, the head witness rewritten to the new end
        conn.execute("DELETE FROM events WHERE seq > (SELECT max(seq) - 3 FROM events)")
        conn.execute("DELETE FROM snapshots")
        recompute_chain(conn, db, conn.execute("SELECT max(seq) FROM events").fetchone()[0])
    assert main(["floor", "check", "--table", "T1", "--db", str(db), "--store", url]) == 1
    assert "were cut from the journal" in capsys.readouterr().err


def test_a_store_that_is_not_there_is_named_not_created(tmp_path, capsys):
    missing = tmp_path / "nowhere.db"
    assert main(["floor", "status", "--store", str(missing)]) == 1
    assert "no such floor store" in capsys.readouterr().err and not missing.exists()


def test_run_refuses_a_table_id_that_cannot_name_a_subject(tmp_path):
    env = {k: v for k, v in __import__("os").environ.items() if k != "CROUPIER_CONFIG"}
    proc = subprocess.run([sys.executable, "-m", "croupier", "run", "--headless", "--db", str(tmp_path / "j.db"),
                           "--profile", "pt-americana", "--wheel", "cammegh-ss2:/dev/null", "--floor",
                           "nats://127.0.0.1:1", "--table-id", "T.1"], capture_output=True, text=True, env=env,
                          timeout=60)
    assert proc.returncode == 2 and "table id 'T.1'" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "j.db").exists()  # refused before anything was recorded


def test_floor_url_in_the_configuration(tmp_path):
    good = tmp_path / "good.toml"
    good.write_text('[floor]\nurl = "nats://floor1:4222, nats://floor2:4222"\n')
    assert load_config(good).floor.url == "nats://floor1:4222, nats://floor2:4222"
    bad = tmp_path / "bad.toml"
    bad.write_text('[floor]\nurl = "http://floor1"\n')
    with pytest.raises(ConfigError, match="floor.url"):
        load_config(bad)


def test_a_pit_boss_acknowledges_a_floor_alarm_once(tmp_path, capsys):
    db = tmp_path / "T1.db"
    write_shift(db).close()
    with raw(db) as conn:
        conn.execute("UPDATE events SET body = replace(body, 'Ana', 'Rui') WHERE seq = 4")
    url = str(tmp_path / "floor.db")
    with open_store(url) as store:
        Ingester(enrolled(store, db), []).ingest(messages(db, "T1"))
    ack = ["floor", "acknowledge", "--table", "T1", "--event", "4", "--by", "Boss", "--store", url]
    assert main(ack) == 0
    assert main(ack) == 1 and "no open alarm" in capsys.readouterr().err
    assert main(["floor", "status", "--store", url, "--json"]) == 0
    (alarm,) = json.loads(capsys.readouterr().out)["alarms"]
    assert (alarm["table"], alarm["event"], alarm["acknowledged_by"]) == ("T1", 4, "Boss")
    assert (alarm["acknowledged_where"], alarm["answer"]) == ("floor", None)
    assert alarm["ended"] == "acknowledged on the floor by Boss at " + alarm["acknowledged"][:19] + "+00:00"
    assert main(["floor", "resume", "--table", "T1", "--by", "Marta", "--store", url]) == 0
    capsys.readouterr()
    assert main(["floor", "status", "--store", url]) == 0
    assert "; table resumed by Marta at " in capsys.readouterr().out


def test_login_without_bcrypt_says_so_in_one_line_and_writes_no_file(tmp_path, monkeypatch, capsys):
    """A NATS-only node or a table has no bcrypt: the login is refused before its file is written,
    so the same command works once bcrypt is there (it never writes over a file)."""
    monkeypatch.setitem(sys.modules, "bcrypt", None)  # import bcrypt raises ImportError
    creds = tmp_path / "floor-ingester.creds"
    assert main(["floor", "login", "--ingester", "--file", str(creds)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bcrypt" in err, err
    assert not creds.exists()
