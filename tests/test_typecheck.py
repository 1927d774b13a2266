"""The mypy step of `dev.py test` (.ci/typecheck.py): errors counted per file; only the screens may
have an allowance, each entry with its reason; a file over its allowance fails, and so does one
under it (the allowance only falls)."""
import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def typecheck():
    spec = importlib.util.spec_from_file_location("typecheck", ROOT / ".ci" / "typecheck.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_errors_are_counted_per_file_and_a_rise_fails():
    check = typecheck()
    assert check.file_of('croupier/ui/app.py:86: error: Incompatible types  [assignment]') == "croupier/ui/app.py"
    assert check.file_of('croupier/session.py:12: error: Item "None"  [union-attr]') == "croupier/session.py"
    assert check.file_of('croupier/ui/app.py:86: note: see the docs') is None
    allowed = {"croupier/ui/app.py": 2}
    assert check.over_allowance(Counter({"croupier/ui/app.py": 2}), allowed) == []
    assert check.over_allowance(Counter({"croupier/ui/app.py": 3, "croupier/session.py": 1}), allowed) == [
        "croupier/session.py", "croupier/ui/app.py"]


def test_a_fall_below_the_allowance_fails_until_the_allowance_is_lowered():
    check = typecheck()
    allowed = {"croupier/ui/app.py": 2, "croupier/ui/text.py": 3}
    assert check.under_allowance(Counter({"croupier/ui/app.py": 2, "croupier/ui/text.py": 3}), allowed) == {}
    assert check.under_allowance(Counter({"croupier/ui/app.py": 1}), allowed) == {
        "croupier/ui/app.py": 1, "croupier/ui/text.py": 0}


@pytest.mark.parametrize("entry, problem", [
    ({"croupier/rules/limits.py": {"errors": 1, "why": "no"}}, "only the screens"),
    ({"croupier/ui/app.py": 3}, "give"),
    ({"croupier/ui/app.py": {"errors": 3}}, "give"),
    ({"croupier/ui/app.py": {"errors": 3, "why": " "}}, "say why"),
    ({"croupier/ui/app.py": {"errors": 0, "why": "fixed"}}, "above 0"),
    ({"croupier/ui/app.py": {"errors": "3", "why": "a string"}}, "above 0"),
])
def test_an_allowance_outside_the_screens_or_without_its_reason_is_refused(entry, problem):
    with pytest.raises(ValueError, match=problem):
        typecheck().read_allowance(json.dumps(entry))


def test_the_allowance_lists_only_screens_each_with_its_reason():
    check = typecheck()
    text = (ROOT / ".ci" / "mypy-allowance.json").read_text(encoding="utf-8")
    allowed = check.read_allowance(text)
    assert all(path.startswith("croupier/ui/") for path in allowed)
