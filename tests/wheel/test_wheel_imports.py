"""The decoders are pure, and hardware libraries are imported only where they are used."""
import subprocess
import sys

FORBIDDEN = ("serial", "textual", "gpiozero", "RPi")


def modules_after(code: str) -> set[str]:
    probe = f"{code}\nimport sys\nprint('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return {name.split(".")[0] for name in out.split()}


def test_decoders_simulator_and_replay_load_no_hardware_or_ui_library():
    loaded = modules_after(
        "import croupier.wheel.protocols, croupier.wheel.simulator, croupier.wheel.replay, "
        "croupier.commands.wheel_replay, croupier.commands.wheel_sim, croupier.keypad.entry, croupier.keypad.keyboard"
    )
    assert not loaded & set(FORBIDDEN)


def test_link_and_matrix_import_their_library_only_when_used():
    assert "serial" not in modules_after("import croupier.wheel.link")
    assert "gpiozero" not in modules_after("import croupier.keypad.matrix")


def test_pyserial_and_gpiozero_appear_in_one_module_each():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "croupier"
    users = {lib: [] for lib in ("serial", "gpiozero", "RPi")}
    for path in root.rglob("*.py"):
        text = path.read_text()
        for lib in users:
            if f"import {lib}" in text or f"from {lib}" in text:
                users[lib].append(path.relative_to(root).as_posix())
    assert [p for p in users["serial"] if p.startswith(("wheel/", "keypad/"))] == ["wheel/link.py"]
    assert [p for p in users["gpiozero"] if p.startswith(("wheel/", "keypad/"))] == ["keypad/matrix.py"]
    assert users["RPi"] == []
