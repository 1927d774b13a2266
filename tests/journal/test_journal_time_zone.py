"""One time zone, the table's: `[table] time_zone` puts every time of the report, the CSV and the
review in that zone, says which, and cuts `--from`/`--to` days at its midnights, whatever the zone
of the machine that reads the journal. A name the system does not know is refused, naming the key."""
from __future__ import annotations

import csv
import json
import time

import pytest

from croupier import config
from croupier.cli import main as cli

from journal_kit import write_shift

# The fake clock opens the table at 2025-01-06 14:00 UTC: 04:00 on the 7th at UTC+14.
KIRITIMATI = 'time_zone = "Pacific/Kiritimati"\n'


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    path = tmp_path_factory.mktemp("zone") / "journal.db"
    write_shift(path).close()
    return path


@pytest.fixture(autouse=True)
def machine_on_utc(monkeypatch, tmp_path):
    monkeypatch.delenv("CROUPIER_CONFIG", raising=False)
    monkeypatch.setattr(config, "SYSTEM_CONFIG", tmp_path / "no-such-croupier.toml")
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def settings(tmp_path, extra: str = KIRITIMATI):
    path = tmp_path / "croupier.toml"
    path.write_text('[table]\ncurrency = "EUR"\nlanguage = "en"\n' + extra)
    return str(path)


def test_the_report_shows_every_time_in_the_table_s_zone_and_says_which(journal, tmp_path, capsys):
    assert cli(["report", "--db", str(journal), "--config", settings(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "Times in the table's time zone: Pacific/Kiritimati, +14 (UTC+14:00)" in text
    assert "7 Jan 2025, 04:00:00  table opened under pt-americana" in text
    assert "6 Jan 2025, 14:00:00" not in text
    assert cli(["report", "--db", str(journal)]) == 0  # without the configuration: the machine's zone
    assert "6 Jan 2025, 14:00:00  table opened under pt-americana" in capsys.readouterr().out


def test_report_days_are_the_table_s_days(journal, tmp_path, capsys):
    day = ["--from", "2025-01-07", "--to", "2025-01-07", "--json"]
    assert cli(["report", "--db", str(journal), "--config", settings(tmp_path), *day]) == 0
    in_kiritimati = capsys.readouterr().out
    assert cli(["report", "--db", str(journal), *day]) == 0
    on_utc = capsys.readouterr().out
    # The whole shift falls on the 7th at UTC+14 and on the 6th in UTC.
    assert json.loads(in_kiritimati)["totals"]["spins"] == 8
    assert json.loads(on_utc)["totals"]["spins"] == 0


def test_the_csv_writes_the_table_s_offset(journal, tmp_path, capsys):
    out = tmp_path / "spins.csv"
    assert cli(["review", "--db", str(journal), "--csv-spins", str(out), "--config", settings(tmp_path)]) == 0
    rows = list(csv.DictReader(out.open(encoding="utf-8-sig")))
    times = [value for row in rows for value in row.values() if value.startswith("2025-")]
    assert times and all(value.endswith("+14:00") and value.startswith("2025-01-07T04:") for value in times)


def test_a_time_zone_the_system_does_not_know_is_refused_naming_the_key(journal, tmp_path, capsys):
    bad = settings(tmp_path, 'time_zone = "Mars/Olympus_Mons"\n')
    assert cli(["report", "--db", str(journal), "--config", bad]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "table.time_zone" in err and "Mars/Olympus_Mons" in err
