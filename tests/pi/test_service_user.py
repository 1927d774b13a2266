"""Root running a table command with the system configuration runs it as the table's user, so the
journal and key it creates are that user's (the table could not read root's)."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from croupier import paths, service_user


def test_only_table_commands_with_the_system_configuration_are_concerned(tmp_path, monkeypatch):
    system = tmp_path / "croupier.toml"
    system.write_text("")
    monkeypatch.setattr(paths, "SYSTEM_CONFIG", system)
    monkeypatch.delenv("CROUPIER_CONFIG", raising=False)
    assert service_user.uses_system_config([])
    assert service_user.uses_system_config(["--config", str(system)])
    assert service_user.uses_system_config([f"--config={system}"])
    assert not service_user.uses_system_config(["--config", str(tmp_path / "other.toml")])
    monkeypatch.setenv("CROUPIER_CONFIG", str(tmp_path / "other.toml"))
    assert not service_user.uses_system_config([])
    system.unlink()
    monkeypatch.delenv("CROUPIER_CONFIG")
    assert not service_user.uses_system_config([])
    assert "doctor" not in service_user.TABLE_COMMANDS and "run" in service_user.TABLE_COMMANDS


CHILD = """
import pathlib, sys
from croupier import paths, service_user
paths.SERVICE_USER = "nobody"
paths.SYSTEM_CONFIG = pathlib.Path(sys.argv[1])
print(service_user.become_service_user(sys.argv[2], sys.argv[4:]))
(pathlib.Path(sys.argv[3]) / ("-".join(sys.argv[2:3] + sys.argv[4:]) + ".db")).write_text("")
"""


@pytest.mark.skipif(os.name != "posix" or os.geteuid() != 0, reason="only root changes user")
def test_root_creates_the_tables_files_as_the_tables_user(tmp_path):
    import pwd

    nobody = pwd.getpwnam("nobody")
    system = tmp_path / "croupier.toml"
    system.write_text("")
    state = Path(tempfile.mkdtemp(prefix="croupier-state-"))
    try:
        state.chmod(0o777)
        # `floor table-key` makes the table's key pair: the table's; the floor's own verbs are not
        for command, owner in ((["run"], nobody.pw_uid), (["doctor"], 0), (["floor", "table-key"], nobody.pw_uid),
                               (["floor", "status"], 0)):
            out = subprocess.run([sys.executable, "-c", CHILD, str(system), command[0], str(state), *command[1:]],
                                 capture_output=True, text=True, check=True).stdout.strip()
            assert out == ("nobody" if owner else "None")
            assert (state / f"{'-'.join(command)}.db").stat().st_uid == owner
    finally:
        for f in state.iterdir():
            f.unlink()
        state.rmdir()
