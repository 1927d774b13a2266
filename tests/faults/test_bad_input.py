"""Bad input at the command line and in the configuration: a clear message, exit status 2, and
nothing written; a name recorded with control characters is printed escaped by `report`."""
from __future__ import annotations

from decimal import Decimal

import pytest

from croupier.cli import main as cli
from croupier.config import ConfigError, load_config
from croupier.session import TableSession
from croupier.table.clock import FakeClock
from croupier.table.events import Ball

LONG = "a" * 5000
DIGITS = "9" * 5000
BALLS = (Ball(id="A", diameter_mm=Decimal(21)), Ball(id="B", diameter_mm=Decimal(21)))


def refused(capsys, *argv: str) -> str:
    """Run the command; it must refuse with status 2 and say why, without a traceback."""
    with pytest.raises(SystemExit) as exit_:
        cli(list(argv))
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "Traceback" not in err and len(err) < 2000, err[:500]
    return err


def run(db, *more: str) -> list[str]:
    return ["run", "--headless", "--db", str(db), "--profile", "pt-americana", "--wheel", "cammegh-ss2:/dev/null",
            *more]


@pytest.mark.parametrize("croupier, message", [
    ("", "a name cannot be empty"),
    ("   ", "a name cannot be empty"),
    ("Ana\x1b[2J", "control characters"),
    ("Ana\u202eoãJ", "control characters"),
    ("x" * 61, "at most 60 characters"),
])
def test_a_croupier_name_is_refused_before_the_journal_is_created(croupier, message, tmp_path, capsys):
    assert message in refused(capsys, *run(tmp_path / "j.db", "--croupier", croupier))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [["report"], ["verify"], ["review"], run("J")[:-2]])
@pytest.mark.parametrize("db, message", [(LONG, "shorter than 4096 bytes"), ("x/" + "a" * 300, "at most 255 bytes")])
def test_a_journal_path_too_long_for_the_system_is_refused(command, db, message, tmp_path, capsys):
    argv = [db if a == "J" else a for a in command]
    if "--db" not in argv:
        argv += ["--db", db]
    assert message in refused(capsys, *argv)


def test_a_chip_count_of_5000_digits_is_refused(capsys):
    assert cli(["payout", "--profile", "pt-americana", "--number", "17", f"17x{DIGITS}"]) == 2
    err = capsys.readouterr().err
    assert "longer than 200 characters" in err and "Traceback" not in err


def test_a_shift_of_5000_digits_is_refused(tmp_path, capsys):
    db = tmp_path / "j.db"
    session = TableSession.open(db, FakeClock())
    session.open_table(profile="pt-americana", minimum=5, colours=("red",),
                       balls=BALLS, croupier="Ana", sensor_only=True)
    session.close()
    assert cli(["review", "--db", str(db), "--pdf", str(tmp_path / "s.pdf"), "--shift", DIGITS]) == 2
    err = capsys.readouterr().err
    assert "give a shift number from 1 to 1" in err and len(err) < 300
    assert not (tmp_path / "s.pdf").exists()


@pytest.mark.parametrize("speed", ["inf", "nan", "-1", "0", "1e400"])
def test_the_simulator_speed_must_be_a_finite_number_above_zero(speed, capsys):
    refused(capsys, "wheel-sim", "--protocol", "cammegh-ss2", "--speed", speed)


def test_a_deeply_nested_configuration_is_a_configuration_error(tmp_path):
    path = tmp_path / "nested.toml"
    path.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(ConfigError, match="nested too deeply"):
        load_config(path)


def test_a_configuration_saved_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + b'[table]\nid = "T9"\n')
    assert load_config(path).table.id == "T9"


@pytest.mark.parametrize("minimum, message", [
    ("1E+308", "at most 1000000"),
    ("0.001", "at most 2 decimal places"),
    ("0", "above zero"),
])
def test_a_table_minimum_must_be_money_a_table_can_take(minimum, message, tmp_path):
    path = tmp_path / "min.toml"
    path.write_text(f"[table]\nminimum = {minimum}\n")
    with pytest.raises(ConfigError, match=message) as error:
        load_config(path)
    assert error.value.key == "table.minimum"


def test_report_prints_names_with_control_characters_escaped(tmp_path, capsys):
    db = tmp_path / "j.db"
    session = TableSession.open(db, FakeClock())
    session.open_table(profile="pt-americana", minimum=5, colours=("red",),
                       balls=BALLS, croupier="Ana\x1b[2J\x1b[31m",
                       sensor_only=True, by="Ana\x1b[2J\x1b[31m")
    session.close()
    assert cli(["report", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "Ana\\x1b[2J\\x1b[31m" in out
