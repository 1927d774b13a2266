"""Reference data for the statistics tests, taken from the regulations rather than from the code."""
import re
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"


def _ring(label: str) -> list[int]:
    path = SHARED / "REGULATIONS.md"
    if not path.exists():
        pytest.skip(f"the shared regulations digest is not beside the repository ({path})")
    found = re.search(label + r": `([0-9-]+)`", path.read_text(encoding="utf-8"))
    assert found, f"no {label} numbering in {path}"
    return [int(n) for n in found.group(1).split("-")]


@pytest.fixture(scope="session")
def french_ring() -> list[int]:
    """The French numbering, clockwise, as REGULATIONS.md §1 prints it (PT-A 2a)."""
    return _ring("French")


@pytest.fixture(scope="session")
def american_ring() -> list[int]:
    """The American numbering, clockwise, as REGULATIONS.md §1 prints it (PT-A 2b)."""
    return _ring("American")
