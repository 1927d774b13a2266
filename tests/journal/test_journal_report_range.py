"""A report over a range of days: only what was recorded on those days of the table's clock."""
import json

import pytest

from croupier.cli import main as cli
from croupier.table.clock import FakeClock

from journal_kit import write_shift


def spins_between(path, capsys, *days) -> list[int]:
    assert cli(["report", "--db", str(path), "--json", *days]) == 0
    return [spin["spin"] for spin in json.loads(capsys.readouterr().out)["spins"]]


def test_a_report_from_and_to_a_day_keeps_only_those_days(tmp_path, capsys):
    path = tmp_path / "j.db"
    clock = FakeClock()  # 2025-01-06 14:00 UTC: the shift's 8 spins that afternoon
    write_shift(path, clock).close()
    day = clock.now().astimezone().date()
    assert spins_between(path, capsys) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert spins_between(path, capsys, "--from", str(day), "--to", str(day)) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert spins_between(path, capsys, "--to", "2025-01-05") == []
    assert spins_between(path, capsys, "--from", "2025-01-07") == []


def test_a_date_it_cannot_read_is_refused(tmp_path, capsys):
    path = tmp_path / "j.db"
    write_shift(path).close()
    with pytest.raises(SystemExit) as refused:
        cli(["report", "--db", str(path), "--from", "14/03/2025"])
    assert refused.value.code == 2
    assert "'14/03/2025' is not a date like 2025-03-14" in capsys.readouterr().err


def test_a_from_day_after_the_to_day_is_refused_in_one_line(tmp_path, capsys):
    path = tmp_path / "j.db"
    write_shift(path).close()
    assert cli(["report", "--db", str(path), "--from", "2025-01-07", "--to", "2025-01-06"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == ("croupier report: --from 2025-01-07 is after --to 2025-01-06: no day lies between "
                                 "them\n")
