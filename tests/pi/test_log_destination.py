"""Where croupier's log goes: never onto the screen Textual draws on (stderr); the journal under
systemd, a file elsewhere."""
from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from croupier.config import LoggingConfig, setup_logging, stdout_is_journal


@pytest.fixture
def installed():
    handlers = []
    yield handlers
    logger = logging.getLogger("croupier")
    for handler in handlers:
        if handler is not None:
            logger.removeHandler(handler)
            handler.close()
    logger.setLevel(logging.NOTSET)


def journal_stream_of_stdout() -> str:
    st = os.fstat(1)
    return f"{st.st_dev}:{st.st_ino}"


def test_under_systemd_the_log_goes_to_the_journal_with_its_priority(capfd, installed, tmp_path):
    config = LoggingConfig(level="info", destination="auto", file=tmp_path / "croupier.log")
    installed.append(setup_logging(config, {"JOURNAL_STREAM": journal_stream_of_stdout()}))
    logging.getLogger("croupier.wheel").warning("sensor offline")
    logging.getLogger("croupier.table").debug("below the level: not logged")
    out, err = capfd.readouterr()
    # <4> is syslog's "warning": journald files the line at that priority.
    assert out == "<4>croupier.wheel: sensor offline\n"
    assert err == ""
    assert not config.file.exists()


def test_elsewhere_the_log_goes_to_the_file_and_not_the_screen(capfd, installed, tmp_path):
    config = LoggingConfig(level="debug", destination="auto", file=tmp_path / "logs" / "croupier.log")
    installed.append(setup_logging(config, {}))
    logging.getLogger("croupier.table").info("table T1 open")
    installed[0].flush()
    assert capfd.readouterr() == ("", "")
    line = config.file.read_text(encoding="utf-8")
    assert "INFO croupier.table: table T1 open" in line


def test_a_child_that_inherited_the_variable_but_not_the_journal_writes_its_file(installed, tmp_path):
    # textual-serve's children inherit $JOURNAL_STREAM while their stdout is a pipe to the server.
    assert not stdout_is_journal({"JOURNAL_STREAM": "1:1"})
    assert not stdout_is_journal({"JOURNAL_STREAM": "not-a-stream"})
    assert not stdout_is_journal({})


def test_none_installs_nothing(installed, tmp_path):
    config = LoggingConfig(level="info", destination="none", file=tmp_path / "croupier.log")
    assert setup_logging(config, {"JOURNAL_STREAM": journal_stream_of_stdout()}) is None
    logging.getLogger("croupier").error("nowhere")
    assert not Path(config.file).exists()


def test_multiline_messages_keep_their_priority_on_every_line(capfd, installed, tmp_path):
    config = LoggingConfig(level="info", destination="journal", file=tmp_path / "croupier.log")
    installed.append(setup_logging(config, {}))
    logging.getLogger("croupier.journal").error("journal unreadable\nrow 12 changed")
    assert capfd.readouterr().out == "<3>croupier.journal: journal unreadable\n<3>row 12 changed\n"
