"""Whether the system clock can be trusted: synchronised with a time server (systemd-timesyncd or
chrony, as `timedatectl` tells it, else the kernel's own adjtimex status), and whether a battery
clock (RTC) keeps the time across power cuts. Standard library only."""
from __future__ import annotations

import ctypes
import ctypes.util
import subprocess
from dataclasses import dataclass
from pathlib import Path

TIME_ERROR = 5  # adjtimex's answer while the clock is not synchronised


@dataclass(frozen=True)
class ClockStanding:
    """What the system clock rests on: a time server, a battery clock."""
    synchronised: bool | None  # None: nothing could tell
    told_by: str  # "timedatectl", "systemd-timesyncd", "adjtimex" or "nothing"
    rtc: bool


def synchronised() -> tuple[bool | None, str]:
    """(synchronised, what told it)."""
    try:
        out = subprocess.run(["timedatectl", "show", "-p", "NTPSynchronized", "--value"],
                             capture_output=True, text=True, timeout=5)
        if out.returncode == 0 and out.stdout.strip() in {"yes", "no"}:
            return out.stdout.strip() == "yes", "timedatectl"
    except (OSError, subprocess.TimeoutExpired):
        pass
    if Path("/run/systemd/timesync/synchronized").exists():  # timesyncd leaves it once synchronised
        return True, "systemd-timesyncd"
    state = _adjtimex()
    return (None, "nothing") if state is None else (state != TIME_ERROR, "adjtimex")


def _adjtimex() -> int | None:
    """The kernel clock's state (modes 0: read only), None where there is no adjtimex."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        adjtimex = libc.adjtimex
    except (OSError, AttributeError, TypeError):
        return None
    timex = ctypes.create_string_buffer(512)  # struct timex is smaller; all zero asks nothing to change
    state = adjtimex(timex)
    return state if state >= 0 else None


def has_rtc(root: Path = Path("/")) -> bool:
    """A battery-backed clock the kernel knows (an RTC module, or the Pi 5's own)."""
    return any((root / "sys/class/rtc").glob("rtc*"))


def standing() -> ClockStanding:
    synced, told_by = synchronised()
    return ClockStanding(synced, told_by, has_rtc())
