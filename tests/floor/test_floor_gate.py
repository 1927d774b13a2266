"""What the ingester lets through, without a broker: only a table's own signed events; anything else
is refused with its reason, one alarm per subject and reason, and never counts as the table's. And
what an inspector checks with the table's public key alone."""
from __future__ import annotations

import sqlite3
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from croupier.cli import main
from croupier.floor.check import compare
from croupier.floor.ingester import Ingester
from croupier.floor.store import open_store
from croupier.floor.wire import MAX_MESSAGE, Link, events_subject, message_id
from croupier.journal.signing import default_signing_key_path, public_path, public_pem, read_public_key, sign_event
from croupier.journal.store import Journal

sys.path.insert(0, str(Path(__file__).parents[1] / "journal"))
from journal_kit import raw, recompute_chain, write_shift  # noqa: E402
from test_floor_store import Message, enrolled, messages  # noqa: E402


@pytest.fixture
def journal_path(tmp_path):
    path = tmp_path / "T1.db"
    write_shift(path).close()
    return path


def resigned(message: Message, **changes) -> Message:
    link = replace(Link.decode(message.data), **changes)
    return Message(message.subject, link.encode(), message.headers)


def test_each_message_not_the_tables_own_is_refused_with_its_reason(tmp_path, journal_path):
    genuine = messages(journal_path, "T1")
    first = genuine[0]
    link = Link.decode(first.data)
    intruder = Ed25519PrivateKey.generate()
    sent = {
        "oversized": Message(first.subject, first.data + b" " * MAX_MESSAGE, first.headers),
        "not a table subject": Message("croupier.table.T1.x.events", first.data, first.headers),
        "unknown table": Message(events_subject("T2"), first.data, {"Nats-Msg-Id": "T2:1:" + link.hash[:16]}),
        "malformed": Message(first.subject, b"\x1b[2J not json", first.headers),
        "no message id": Message(first.subject, first.data, None),
        "wrong message id": Message(first.subject, first.data, {"Nats-Msg-Id": "T1:1"}),
        "missing signature": resigned(first, sig=""),
        "bad signature": resigned(first, sig=sign_event(intruder, link.hash)),
    }
    with open_store(str(tmp_path / "floor.db")) as store:
        ingester = Ingester(enrolled(store, journal_path), [])
        again = [replace(message) for message in sent.values()]  # each delivered twice
        handled = ingester.ingest([*sent.values(), *again])
        assert handled.poison == {id(m) for m in [*sent.values(), *again]}
        assert list(store.links("T1")) == []
        refusals = {r.reason: r for r in store.refusals()}
        assert set(refusals) == set(sent)
        assert {r.reason: r.messages for r in refusals.values()} == dict.fromkeys(sent, 2)  # one alarm each, counting
        assert [t.table_id for t in store.tables()] == []  # no tile for any of it
        assert store.alarms() == []
        # The genuine events all go in after it.
        assert ingester.ingest(genuine).poison == set()
        assert len(list(store.links("T1"))) == len(genuine)
        # Refused again after a pit boss took the alarm up: a new alarm.
        assert store.acknowledge_refusals(events_subject("T1"), "Pit boss") == 6  # the other two are on other subjects
        other = replace(link, hash="f" * 64, sig=sign_event(intruder, "f" * 64))  # another event 1, not the table's
        ingester.ingest([Message(first.subject, other.encode(), {"Nats-Msg-Id": message_id("T1", 1, other.hash)})])
        assert [r.reason for r in store.refusals(open_only=True) if r.subject == events_subject("T1")] == ["bad signature"]


def test_a_journal_rechained_without_the_tables_key_is_refused_at_the_floor(tmp_path, journal_path):
    with raw(journal_path) as conn:
        (target,) = conn.execute("SELECT min(seq) FROM events WHERE kind = 'result-recorded'").fetchone()
        (body,) = conn.execute("SELECT body FROM events WHERE seq = ?", (target,)).fetchone()
        conn.execute("UPDATE events SET body = ? WHERE seq = ?", (body.replace('"number":17', '"number":18'), target))
        recompute_chain(conn, journal_path, target)
    with open_store(str(tmp_path / "floor.db")) as store:
        Ingester(enrolled(store, journal_path), []).ingest(messages(journal_path, "T1"))
        assert store.head("T1")[0] == target - 1
        (refusal,) = store.refusals()
        assert refusal.reason == "bad signature" and f"event {target} " in refusal.detail


def test_verify_with_the_public_key_alone_names_the_first_unsigned_event(tmp_path, journal_path, capsys):
    public = public_path(default_signing_key_path(journal_path))
    assert main(["verify", "--db", str(journal_path), "--public-key", str(public)]) == 0
    assert "signed: all" in capsys.readouterr().out
    with raw(journal_path) as conn:
        (target,) = conn.execute("SELECT min(seq) FROM events WHERE kind = 'result-recorded'").fetchone()
        (body,) = conn.execute("SELECT body FROM events WHERE seq = ?", (target,)).fetchone()
        conn.execute("UPDATE events SET body = ? WHERE seq = ?", (body.replace('"number":17', '"number":18'), target))
        recompute_chain(conn, journal_path, target)
    assert main(["verify", "--db", str(journal_path)]) == 0  # the re-chained journal checks by itself...
    capsys.readouterr()
    assert main(["verify", "--db", str(journal_path), "--public-key", str(public)]) == 1  # ...but not signed
    assert f"event {target} is not signed by this key" in capsys.readouterr().err


def test_verify_checks_the_floors_copy_and_floor_check_names_the_genuine_copy(tmp_path, journal_path, capsys):
    url = str(tmp_path / "floor.db")
    public = public_path(default_signing_key_path(journal_path))
    with open_store(url) as store:
        Ingester(enrolled(store, journal_path), []).ingest(messages(journal_path, "T1"))
        seq, digest = store.head("T1")
        store.record_anchor("T1", seq, digest, "2026-01-01T00:00:00+00:00")
    assert main(["verify", "--store", url, "--table", "T1", "--public-key", str(public)]) == 0
    assert f"intact: {seq} events, every one signed" in capsys.readouterr().out
    with raw(journal_path) as conn:  # the table's journal re-chained by someone without its key
        (target,) = conn.execute("SELECT min(seq) FROM events WHERE kind = 'result-recorded'").fetchone()
        (body,) = conn.execute("SELECT body FROM events WHERE seq = ?", (target,)).fetchone()
        conn.execute("UPDATE events SET body = ? WHERE seq = ?", (body.replace('"number":17', '"number":18'), target))
        recompute_chain(conn, journal_path, target)
    with Journal.open(journal_path, read_only=True) as journal, open_store(url, read_only=True) as store:
        result = compare(journal, store, "T1")
    assert f"event {target} of table T1 differs" in result.problem
    assert "the floor's copy carries the table's signature and the journal's event does not" in result.problem
    # The other way round: the floor's copy altered in the store.
    other = tmp_path / "T2" / "T2.db"  # a table of its own, with its own key
    other.parent.mkdir()
    write_shift(other).close()
    with open_store(url) as store:
        Ingester(enrolled(store, other, "T2"), []).ingest(messages(other, "T2"))
        seq, digest = store.head("T2")
        store.record_anchor("T2", seq, digest, "2026-01-01T00:00:00+00:00")
    with sqlite3.connect(tmp_path / "floor.db") as conn:
        conn.execute("UPDATE floor_events SET hash = (CASE WHEN hash LIKE 'f%' THEN '0' ELSE 'f' END) || substr(hash, 2), "
                     "sig = '' WHERE table_id = 'T2' AND seq = 3")
    with Journal.open(other, read_only=True) as journal, open_store(url, read_only=True) as store:
        result = compare(journal, store, "T2")
    assert "the journal's event carries the table's signature and the floor's does not: the journal is genuine" \
        in result.problem


def test_enrol_takes_a_public_key_once_and_refuses_another_without_replace(tmp_path, journal_path, capsys):
    url = str(tmp_path / "floor.db")
    public = public_path(default_signing_key_path(journal_path))
    assert main(["floor", "enrol", "--table", "T1", "--public-key", str(public), "--store", url]) == 0
    assert "fingerprint" in capsys.readouterr().out
    assert main(["floor", "enrol", "--table", "T1", "--public-key", str(default_signing_key_path(journal_path)),
                 "--store", url]) == 2  # the private key never goes to the floor
    assert "private key" in capsys.readouterr().err
    other = tmp_path / "other" / "j.db"
    other.parent.mkdir()
    write_shift(other).close()
    public_other = public_path(default_signing_key_path(other))
    assert main(["floor", "enrol", "--table", "T1", "--public-key", str(public_other), "--store", url]) == 1
    assert "--replace" in capsys.readouterr().err
    assert main(["floor", "enrol", "--table", "T1", "--public-key", str(public_other), "--store", url,
                 "--replace"]) == 0


def test_table_key_makes_the_pair_before_the_first_start_and_enrol_prints_the_same_fingerprint(tmp_path, capsys):
    db = tmp_path / "state" / "journal.db"
    db.parent.mkdir()
    assert main(["floor", "table-key", "--db", str(db)]) == 0
    shown = capsys.readouterr().out
    private = default_signing_key_path(db)
    assert private.stat().st_mode & 0o777 == 0o600 and not db.exists()
    assert main(["floor", "enrol", "--table", "T7", "--public-key", str(public_path(private)),
                 "--store", str(tmp_path / "floor.db")]) == 0
    fingerprint = shown.split("fingerprint: ")[1].strip()
    assert fingerprint in capsys.readouterr().out
    write_shift(db).close()  # the table's first start signs with that pair
    assert main(["verify", "--db", str(db), "--public-key", str(public_path(private))]) == 0


@pytest.mark.parametrize("sodium", [True, False])
def test_the_ingesters_signature_check_agrees_with_the_journals_with_or_without_libsodium(sodium, monkeypatch):
    from croupier.journal.signing import event_checker, event_signed, event_verifier, raw_public_key, signed_message

    if not sodium:
        monkeypatch.setitem(sys.modules, "nacl.bindings", None)  # as where PyNaCl is not installed
    else:
        pytest.importorskip("nacl.bindings")
    key, other = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    digest = "ab" * 32
    good = sign_event(key, digest)
    check = event_checker(key.public_key())
    verifier, raw = event_verifier(), raw_public_key(key.public_key())  # what the checking processes are handed
    for signature in (good, sign_event(other, digest), sign_event(key, "cd" * 32), good[:-2], "zz" + good[2:], "",
                      None, good + "00"):
        expected = event_signed(key.public_key(), digest, signature)
        assert check(digest, signature) == expected
        signed = signed_message(digest, signature)
        assert (signed is not None and verifier(raw, signed)) == expected
    assert check(digest, good)


def test_a_refusal_s_reason_is_typed_stored_as_its_words_and_read_back_from_older_rows(tmp_path):
    """The gate's reasons are members whose values are what the store has always kept: a row an
    older floor wrote reads back as the member, and the view words it in its language."""
    from croupier.floor.alarms import shown
    from croupier.floor.gate import RefusalReason
    from croupier.i18n import install

    path = tmp_path / "floor.db"
    with open_store(str(path)):
        pass
    with sqlite3.connect(path) as conn:  # as an older floor stored it: the reason's words
        conn.execute("INSERT INTO floor_refusals (subject, reason, detail, messages, raised, last_seen) "
                     "VALUES ('croupier.T1.events', 'missing signature', 'event 3 is not signed', 2, "
                     "'2026-11-26T20:00:00+00:00', '2026-11-26T20:00:00+00:00')")
    with open_store(str(path)) as store:
        (refusal,) = store.refusals()
        assert refusal.reason is RefusalReason.UNSIGNED
        try:
            install("pt")
            (alarm,) = shown(store)
        finally:
            install("en")
    assert "missing signature" not in alarm.detail and "event 3 is not signed" in alarm.detail


def test_the_gate_keeps_a_bounded_number_of_tables_whatever_subjects_come():
    from croupier.floor.gate import KEYS_KEPT, Gate, RefusalReason

    asked = []
    gate = Gate(lambda table_id: asked.append(table_id))
    for n in range(KEYS_KEPT + 500):
        refused = gate.admit(f"croupier.table.X{n}.events", b"{}", {})
        assert refused.reason is RefusalReason.UNKNOWN_TABLE
    assert len(gate._keys) == KEYS_KEPT and len(asked) == KEYS_KEPT + 500


def test_a_batch_reads_the_keys_of_its_tables_in_one_query_and_a_flood_stays_bounded(journal_path):
    from croupier.floor.gate import KEYS_KEPT, Gate, RefusalReason

    pem = public_pem(read_public_key(public_path(default_signing_key_path(journal_path)))).decode()
    clock = [0.0]
    one, many = [], []
    gate = Gate(lambda table_id: one.append(table_id), clock=lambda: clock[0],
                public_keys_of=lambda table_ids: many.append(list(table_ids)) or {"T1": pem})
    batch = messages(journal_path, "T1") + [Message(events_subject("T9"), b"{}", {}),
                                            Message("not.a.table", b"{}", {})]
    found = gate.admit_all(batch)
    assert [type(f).__name__ for f in found[-2:]] == ["Refused", "Refused"]
    assert found[-2].reason is RefusalReason.UNKNOWN_TABLE and found[-1].reason is RefusalReason.NOT_A_TABLE
    assert all(f[0] == "T1" for f in found[:-2]) and many == [["T1", "T9"]] and one == []
    clock[0] += 1.0
    gate.admit_all(batch)
    assert many == [["T1", "T9"]]  # kept a while: an enrolment is seen within KEYS_FOR_S
    clock[0] += 60.0
    flood = [Message(events_subject(f"X{n}"), b"{}", {}) for n in range(KEYS_KEPT + 500)]
    assert {f.reason for f in gate.admit_all(flood)} == {RefusalReason.UNKNOWN_TABLE}
    assert len(many) == 2 and len(many[1]) == KEYS_KEPT + 500 and one == []  # one query, none a table
    assert len(gate._keys) == KEYS_KEPT
