"""The command-line entry point a user meets first."""
import subprocess
import sys

import pytest

from croupier.cli import COMMANDS, main


def test_help_lists_every_command(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert name in out


def test_unknown_command_is_refused_with_usage(capsys):
    assert main(["pay"]) == 2
    err = capsys.readouterr().err
    assert "unknown command 'pay'" in err and "usage: croupier" in err


def test_no_arguments_prints_usage_and_fails(capsys):
    assert main([]) == 2
    assert "usage: croupier" in capsys.readouterr().out


def test_every_command_module_exists_and_has_main():
    assert COMMANDS, "no command is registered"
    import importlib

    for name, (module, _) in COMMANDS.items():
        mod = importlib.import_module(module)
        assert callable(getattr(mod, "main", None)), name


def test_console_script_runs_as_module():
    proc = subprocess.run([sys.executable, "-m", "croupier", "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith("croupier ")


def test_output_cut_short_by_the_reader_ends_quietly():
    # `croupier --help | head -1`: no traceback when the reader goes away.
    proc = subprocess.Popen([sys.executable, "-m", "croupier", "--help"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader leaves before anything is read
    assert proc.wait() == 0
    assert b"Traceback" not in proc.stderr.read()


HEAVY = ("textual", "croupier.config", "croupier.rules.layout", "croupier.table.state", "croupier.journal.store",
         "croupier.wheel.events", "croupier.ui", "fpdf", "serial", "gpiozero")


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_s_help_answers_without_loading_what_the_command_runs(command):
    # A technician's `croupier COMMAND --help` on a Pi 3 should answer at once: the help is built
    # from light modules only; the screens, rules, journal and wheel decoders load when it runs.
    probe = ("import sys; from croupier.cli import main\n"
             "try:\n    main([sys.argv[1], '--help'])\nexcept SystemExit:\n    pass\n"
             "print(' '.join(sorted(m for m in sys.modules)))")
    done = subprocess.run([sys.executable, "-c", probe, command], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = done.stdout.split("\n")[-2].split()
    assert "usage:" in done.stdout
    assert [m for m in loaded if m.startswith(HEAVY)] == []


def test_payout_answers_with_the_rules_alone():
    # `croupier payout` is the one command asked at the table's side for a quick answer: it loads the
    # rules and nothing of the table, the journal, the screens or the signatures, nor dataclasses
    # (whose inspect import alone was a tenth of its start) and argparse's shutil.
    probe = ("import sys; from croupier.cli import main\n"
             "main(['payout', '--profile', 'ru-american', '--number', '17', '17x2@blue', 'voisins@red', '14/17'])\n"
             "print(' '.join(sorted(m for m in sys.modules)))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = done.stdout.split("\n")[-2].split()
    assert "pays" in done.stdout
    unwanted = ("textual", "cryptography", "sqlite3", "croupier.journal", "croupier.table", "croupier.ui",
                "croupier.config", "dataclasses", "inspect", "shutil")
    assert [m for m in loaded if m.split(".")[0] in unwanted or m.startswith(unwanted)] == []
