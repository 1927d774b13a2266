"""The screens call the session's commands as typed methods: a command's arguments are the table
core's, checked by mypy where a flow calls it (`app.record(app.session.void_spin, ...)`), and a flow
knows its app is the table's."""
import re
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FLOW = textwrap.dedent('''\
    from croupier.rules.spin import Direction, VoidReason
    from croupier.ui.app import TableApp


    async def flow(app: TableApp) -> None:
        app.record(app.session.void_spin, reason=VoidReason.CHIP_FELL, by=app.croupier())
        app.session.launch(direction=Direction.CLOCKWISE)
        app.table_screen.say(app.config.table.id)
        app.record(app.session.void_spin, reason="chip fell", by=app.croupier())
        app.record(app.session.void_spin, resaon=VoidReason.CHIP_FELL)
        app.session.launch(direction="clockwise")
        app.record(app.session.void_spin, VoidReason.CHIP_FELL)
''')


def test_a_flow_calling_a_command_with_a_wrong_argument_is_a_type_error(tmp_path, monkeypatch):
    api = pytest.importorskip("mypy.api")
    (tmp_path / "flow.py").write_text(FLOW, encoding="utf-8")
    monkeypatch.chdir(ROOT)  # the project's configuration and cache
    out, _err, _status = api.run([str(tmp_path / "flow.py")])
    errors = sorted({int(found[1]) for found in re.finditer(r"flow\.py:(\d+): error:", out)})
    assert errors == [9, 10, 11, 12], out


def test_every_command_the_screens_call_is_a_session_method():
    import ast

    from croupier.session import TableSession

    called = set()
    for path in (ROOT / "croupier" / "ui").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "record":
                command = node.args[0]
                assert isinstance(command, ast.Attribute) and getattr(command.value, "attr", None) == "session", \
                    f"{path.name}:{node.lineno}: a command is a session method, not {ast.unparse(command)}"
                called.add(command.attr)
    assert called and all(callable(getattr(TableSession, name)) for name in called)
