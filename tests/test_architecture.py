"""The layering the README promises: a pure core, and each hardware library in one adapter only.

A Pi-only library imported at the wrong place makes the program fail on start-up on an ordinary
machine (RPi.GPIO raises on import anywhere but a Pi), and a UI import in the core makes
`croupier payout` slow; both are things a user notices.
"""
import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "croupier"
README = PACKAGE.parent / "README.md"
HEAVY = ("textual", "serial", "gpiozero", "RPi", "lgpio")
# The only modules allowed to import each hardware or UI library (lazily, inside functions).
ADAPTERS = {
    "serial": {"wheel/link.py"},
    "gpiozero": {"keypad/matrix.py", "board/gpio.py"},
}
UI_PACKAGES = ("ui", "review", "billboard")
UI_MODULES = ("floor/view.py", "terminal.py", "escape_keys.py")  # the floor view, beside the floor's other modules; every screen's terminal and keys
PURE_PACKAGES = ("rules", "table", "stats")


def _modules(folder: str = "") -> list[Path]:
    return sorted((PACKAGE / folder).rglob("*.py"))


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(top-level module, imported at module level?) for each import in the file."""
    tree = ast.parse(path.read_text(), str(path))
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name.split(".")[0], id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module.split(".")[0], id(node) in top))
    return found


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_the_core_imports_no_ui_and_no_hardware_library(package):
    offenders = [f"{path.relative_to(PACKAGE)} imports {name}"
                 for path in _modules(package) for name, _ in _imports(path) if name in HEAVY]
    assert offenders == []


def test_rpi_gpio_is_never_imported_by_croupier():
    offenders = [str(path.relative_to(PACKAGE)) for path in _modules()
                 if any(name in ("RPi", "lgpio") for name, _ in _imports(path))]
    assert offenders == []


@pytest.mark.parametrize("library", sorted(ADAPTERS))
def test_hardware_libraries_are_imported_lazily_and_only_by_their_adapters(library):
    where = {str(path.relative_to(PACKAGE)): at_top for path in _modules()
             for name, at_top in _imports(path) if name == library}
    assert set(where) <= ADAPTERS[library], f"{library} imported outside its adapters: {sorted(where)}"
    assert not any(where.values()), f"{library} imported at module level in {sorted(k for k, v in where.items() if v)}"


def test_importing_every_core_module_loads_no_ui_or_hardware_library():
    names = [".".join(("croupier", *path.relative_to(PACKAGE).with_suffix("").parts))
             for package in PURE_PACKAGES for path in _modules(package)]
    code = (f"import importlib, sys\nfor n in {names!r}: importlib.import_module(n)\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_textual_lives_in_the_apps_only():
    offenders = [str(path.relative_to(PACKAGE)) for path in _modules()
                 if path.relative_to(PACKAGE).parts[0] not in UI_PACKAGES
                 and str(path.relative_to(PACKAGE)) not in UI_MODULES
                 and any(name == "textual" for name, _ in _imports(path))]
    assert offenders == []


def _import_table() -> dict[str, set[str] | None]:
    """The README's package table: each part of croupier ("rules", "config", ...) and the croupier
    packages it may import (None: anything)."""
    text = README.read_text()
    start = text.index("| package | what it holds | may import |")
    table: dict[str, set[str] | None] = {}
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        parts, _, may_import = (cell.strip() for cell in line.strip("|").split("|"))
        allowed = None if may_import.startswith("anything") else set(re.findall(r"`([a-z0-9_]+)`", may_import))
        for part in re.findall(r"`croupier/([^`]+)`", parts):
            table[part.rstrip("/").removesuffix(".py")] = allowed
    return table


def _part(path: Path) -> str:
    """The part of croupier a module belongs to: its package, or the module itself at the top."""
    relative = path.relative_to(PACKAGE)
    return relative.parts[0] if len(relative.parts) > 1 else relative.stem


def _croupier_imports(path: Path) -> set[str]:
    """The parts of croupier a module imports, at module level or inside functions."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
            [node.module] if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 else []
        found |= {name.split(".")[1] for name in names if name.startswith("croupier.")}
    return found


def test_the_readme_table_names_every_part_of_croupier():
    table = _import_table()
    assert {"rules", "table", "stats", "history", "journal", "export", "config", "board"} <= set(table)
    unlisted = sorted({str(path.relative_to(PACKAGE)) for path in _modules() if _part(path) not in table})
    assert unlisted == [], "add these to the README's package table"


def test_each_part_of_croupier_imports_only_what_the_readme_table_allows():
    table = _import_table()
    breaches = sorted(f"{path.relative_to(PACKAGE)} imports croupier.{name}" for path in _modules()
                      if table.get(_part(path)) is not None
                      for name in _croupier_imports(path) - table[_part(path)] - {_part(path)})
    assert breaches == []


def test_the_players_monitor_shares_the_table_screens_words_without_importing_the_screen():
    assert "ui" not in _import_table()["billboard"] and "screens" in _import_table()["billboard"]
