"""The mypy step of `dev.py test` (.ci/typecheck.py): errors counted per package, any package over
its allowance fails it, the table's core is allowed none."""
import importlib.util
import json
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def typecheck():
    spec = importlib.util.spec_from_file_location("typecheck", ROOT / ".ci" / "typecheck.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_errors_are_counted_per_package_and_a_rise_fails():
    check = typecheck()
    assert check.package_of('croupier/ui/app.py:86: error: Incompatible types  [assignment]') == "ui"
    assert check.package_of('croupier/session.py:12: error: Item "None"  [union-attr]') == "session"
    assert check.package_of('croupier/ui/app.py:86: note: see the docs') is None
    allowed = {"ui": 2}
    assert check.over_allowance(Counter({"ui": 2}), allowed) == []
    assert check.over_allowance(Counter({"ui": 3, "table": 1}), allowed) == ["table", "ui"]


def test_the_core_is_allowed_no_error_and_the_allowance_lists_only_the_rest():
    check = typecheck()
    allowance = json.loads((ROOT / ".ci" / "mypy-allowance.json").read_text(encoding="utf-8"))
    assert not set(check.CORE) & set(allowance)
    assert all(isinstance(count, int) and count > 0 for count in allowance.values())
