"""The table keeps the report's fold in signed checkpoints in its journal: a report starts from the
newest one that checks (the table's signature, this code, the journal's chain at its event) and folds
only what follows, with the figures of a report that folds everything. A forged, altered, swapped,
rewritten or other table's checkpoint is ignored with a notice naming it."""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from croupier.cli import main as cli
from croupier.journal import checkpoints
from croupier.journal.signing import default_signing_key_path, make_private_key, read_private_key

from journal_kit import write_shift
from test_journal_report_cache import play


def report(capsys, journal: Path, *options: str) -> tuple[dict, str]:
    assert cli(["report", "--db", str(journal), "--json", *options]) == 0
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


def figures(report: dict) -> dict:
    return {key: value for key, value in report.items() if key not in ("checked_before", "checkpoint")}


def checkpoint(session, upto: int | None = None) -> int:
    """The table's checkpoint at event `upto` (its head by default), as its writer makes it."""
    journal = session.journal
    upto = upto or journal.head[0]
    assert checkpoints.write(journal.path, journal.key, journal.signer.key, upto)
    return upto


def rows(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT seq, event_hash, stamp, fold, sig FROM report_checkpoints ORDER BY seq").fetchall()


@pytest.fixture
def table(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # no saved fold of an earlier report
    session = write_shift(tmp_path / "journal.db")
    yield session
    session.close()


def test_a_report_starts_from_the_table_s_checkpoint_with_the_figures_of_a_whole_fold(table, capsys):
    made = checkpoint(table)
    play(table, 17, 4)
    table.correct_result(spin=3, number=16, reason="ball seen in 16", by="Boss", pin="9000")  # before the checkpoint
    path = Path(table.journal.path)
    started, notices = report(capsys, path)
    assert started["checkpoint"]["event"] == made and started["checked_before"] == made and notices == ""
    whole, _ = report(capsys, path, "--fresh")
    assert whole["checkpoint"] is None and figures(started) == figures(whole)


def test_the_text_report_names_the_checkpoint_and_what_was_checked(table, capsys):
    made = checkpoint(table)
    play(table, 5)
    assert cli(["report", "--db", str(table.journal.path)]) == 0
    out = capsys.readouterr().out
    assert f"Events 1-{made} were folded by the table itself: its checkpoint after event {made}" in out
    assert "croupier verify" in out


def test_the_table_makes_its_checkpoints_as_it_writes(table, monkeypatch):
    monkeypatch.setattr(checkpoints, "EVERY", 10)
    play(table, 1, 2, 3)
    table.journal.checkpoints.wait()
    made = [row[0] for row in rows(Path(table.journal.path))]
    assert made and len(made) <= checkpoints.KEEP and made[-1] <= table.journal.head[0]


def test_a_later_checkpoint_goes_on_from_the_one_before(table, capsys):
    first = checkpoint(table)
    play(table, 8, 9, 10)
    second = checkpoint(table)
    assert [row[0] for row in rows(Path(table.journal.path))] == [first, second]
    play(table, 11)
    started, _ = report(capsys, Path(table.journal.path))
    assert started["checkpoint"]["event"] == second
    assert figures(started) == figures(report(capsys, Path(table.journal.path), "--fresh")[0])


# --- attacks: each checkpoint that does not check is ignored, named, and changes no figure -----------

def tamper(path: Path, sql: str, *parameters) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute(sql, parameters)


def ignored(capsys, path: Path, why: str, *, falls_back_to: int | None = None) -> dict:
    started, notices = report(capsys, path)
    assert why in notices, notices
    assert (started["checkpoint"] or {}).get("event") == falls_back_to
    assert figures(started) == figures(report(capsys, path, "--fresh")[0])
    return started


def test_an_altered_checkpoint_is_ignored(table, capsys):
    made = checkpoint(table)
    path = Path(table.journal.path)
    (_, _, _, fold, _), = rows(path)
    import zlib
    text = zlib.decompress(fold).replace(b'"number":17', b'"number":18', 1)  # still a fold that reads
    tamper(path, "UPDATE report_checkpoints SET fold = ? WHERE seq = ?", zlib.compress(text), made)
    ignored(capsys, path, f"checkpoint after event {made} was not used (it is not signed by the table's key")


def test_a_checkpoint_signed_with_another_key_is_ignored(table, capsys, tmp_path):
    """Forged: made by whoever can write the file, with a key of their own."""
    made = checkpoint(table)
    path = Path(table.journal.path)
    forger = make_private_key(tmp_path / "forger.key")
    (seq, event_hash, stamp, fold, _), = rows(path)
    forged = checkpoints.sign_checkpoint(forger, checkpoints._message(seq, event_hash, stamp, fold))
    tamper(path, "UPDATE report_checkpoints SET sig = ?", forged)
    ignored(capsys, path, "not signed by the table's key")


def test_another_table_s_checkpoint_is_ignored(table, capsys, tmp_path):
    other_folder = tmp_path / "other"
    other_folder.mkdir()
    other = write_shift(other_folder / "journal.db", numbers=(1, 2, 3, 4, 5, 6, 7, 8))
    checkpoint(other)
    other.close()
    path = Path(table.journal.path)
    checkpoint(table)
    (theirs,) = rows(other_folder / "journal.db")
    tamper(path, "DELETE FROM report_checkpoints")
    tamper(path, "INSERT INTO report_checkpoints VALUES (?, ?, ?, ?, ?)", *theirs)
    ignored(capsys, path, "not signed by the table's key")


def test_a_checkpoint_moved_to_another_event_is_ignored(table, capsys):
    """Swapped: the checkpoint of an earlier event put where a later one was."""
    early = checkpoint(table, table.journal.head[0] - 5)
    late = checkpoint(table)
    path = Path(table.journal.path)
    tamper(path, "DELETE FROM report_checkpoints WHERE seq = ?", late)
    tamper(path, "UPDATE report_checkpoints SET seq = ?, event_hash = ? WHERE seq = ?",
           late, table.journal.hash_at(late), early)
    ignored(capsys, path, f"checkpoint after event {late} was not used (it is not signed")


def test_a_checkpoint_of_a_journal_since_rewritten_is_ignored(table, capsys, tmp_path):
    """The table's own checkpoint, of a copy of this journal that went on otherwise (an old copy put
    back and played on): its event is not this journal's."""
    path = Path(table.journal.path)
    table.close()
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in ("journal.db", "table.key", "table-signing.key", "table-signing.pub"):
        shutil.copy(path.with_name(name), copy / name)
    from croupier.journal.witness import witness_path
    shutil.copy(witness_path(path), witness_path(copy / "journal.db"))
    from croupier.session import TableSession
    from croupier.table.clock import FakeClock

    def reopened(at: Path):
        clock = FakeClock()
        clock.advance(days=1)
        return TableSession.open(at, clock)

    theirs = reopened(copy / "journal.db")
    play(theirs, 36)
    made = checkpoint(theirs)
    theirs.close()
    mine = reopened(path)
    play(mine, 0)
    mine.close()
    tamper(path, checkpoints.SCHEMA)
    tamper(path, "INSERT INTO report_checkpoints VALUES (?, ?, ?, ?, ?)", *rows(copy / "journal.db")[0])
    ignored(capsys, path, f"the journal does not have, at event {made}, the event it was made from")


def test_an_older_checkpoint_is_taken_up_when_the_newest_does_not_check(table, capsys):
    early = checkpoint(table, table.journal.head[0] - 5)
    late = checkpoint(table)
    path = Path(table.journal.path)
    tamper(path, "UPDATE report_checkpoints SET sig = ? WHERE seq = ?", "00" * 64, late)
    ignored(capsys, path, f"checkpoint after event {late} was not used", falls_back_to=early)


def test_a_checkpoint_of_other_code_is_ignored(table, capsys, monkeypatch):
    from croupier.journal import fold_stamp

    checkpoint(table)
    monkeypatch.setattr(fold_stamp, "stamp", lambda: "the projections of another version")
    ignored(capsys, Path(table.journal.path), "made by another version of croupier")


def test_without_the_table_s_public_key_no_checkpoint_is_taken_up(table, capsys, tmp_path):
    checkpoint(table)
    path = Path(table.journal.path)
    other = make_private_key(tmp_path / "someone.key")
    started, notices = report(capsys, path, "--public-key", str(tmp_path / "someone.pub"))
    assert started["checkpoint"] is None and "not signed by the table's key" in notices
    assert read_private_key(default_signing_key_path(path)).public_key() != other.public_key()
    path.with_name("table-signing.pub").unlink()
    started, notices = report(capsys, path)
    assert started["checkpoint"] is None and "public key" in notices


def test_after_an_upgrade_the_table_makes_a_checkpoint_at_once(table, monkeypatch):
    from croupier.journal import fold_stamp
    from croupier.journal.store import Journal

    made = checkpoint(table)
    path = Path(table.journal.path)
    table.close()
    with Journal.open(path) as journal:
        assert journal.checkpoints.last == made
    monkeypatch.setattr(fold_stamp, "stamp", lambda: "the projections of another version")
    with Journal.open(path) as journal:
        assert journal.checkpoints.last == 0 and checkpoints.due(journal.head[0] + checkpoints.EVERY, 0)


def test_the_review_s_whole_journal_statistics_start_from_the_checkpoint(table):
    from croupier.history.statistics import statistics_text
    from croupier.stats import summary

    made = checkpoint(table)
    play(table, 17, 4)
    table.correct_result(spin=2, number=3, reason="misread", by="Boss", pin="9000")
    notices: list[str] = []
    columns, watched, after = checkpoints.journal_spins(
        table.journal, checkpoints.table_public_key(table.journal.path), notices.append)
    assert after == made and watched is None and notices == []  # a spin the charts saw was corrected
    from croupier.history.spins import SPIN_EVENTS, counted_spins

    every = counted_spins(table.journal.events(SPIN_EVENTS))
    assert summary(columns) == summary(every)
    assert statistics_text(columns, "french", "x", watched=watched) == statistics_text(every, "french", "x")


def test_the_whole_journal_s_spins_read_in_a_process_of_their_own_are_the_same(table, capsysbinary, tmp_path):
    """As the review reads them beside its screen (`journal_spins_of_file`, pickled to its pipe)."""
    import pickle

    made = checkpoint(table)
    play(table, 17, 4)
    checkpoints.journal_spins_of_file(str(table.journal.path))
    columns, watched, after, notices = pickle.loads(capsysbinary.readouterr().out)
    assert (columns, watched, after) == checkpoints.journal_spins(
        table.journal, checkpoints.table_public_key(table.journal.path), notices.append)
    assert after == made and notices == []
    checkpoints.journal_spins_of_file(str(tmp_path / "none.db"))
    assert pickle.loads(capsysbinary.readouterr().out) == ("error", f"{tmp_path / 'none.db'}: no such journal")


def test_a_checkpoint_ahead_of_the_journal_is_ignored(table, capsys):
    """Signed by this very table, but of an event the journal does not have (an older copy of the
    journal put back, the checkpoints of the newer one kept)."""
    made = checkpoint(table)
    path = Path(table.journal.path)
    (_, event_hash, stamp, fold, _), = rows(path)
    ahead = made + 40
    signature = checkpoints.sign_checkpoint(table.journal.signer.key,
                                            checkpoints._message(ahead, event_hash, stamp, fold))
    tamper(path, "INSERT INTO report_checkpoints VALUES (?, ?, ?, ?, ?)", ahead, event_hash, stamp, fold, signature)
    ignored(capsys, path, f"the journal does not have, at event {ahead}, the event it was made from",
            falls_back_to=made)


def test_a_public_key_is_readable_by_all_whatever_the_umask(tmp_path):
    """A service's umask is often 0077; the public key beside its private key is what others check with."""
    import os
    import stat

    from croupier.journal.signing import public_path

    old = os.umask(0o077)
    try:
        make_private_key(tmp_path / "floor-signing.key")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "floor-signing.key").stat().st_mode) == 0o600
    assert stat.S_IMODE(public_path(tmp_path / "floor-signing.key").stat().st_mode) == 0o644
