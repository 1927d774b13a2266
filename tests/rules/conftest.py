"""Shared set-up for the rules tests: where ../shared lives, relative to the repository."""
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"


@pytest.fixture
def regulations() -> str:
    """The English digest of the regulations (REGULATIONS.md), read as text."""
    path = SHARED / "REGULATIONS.md"
    if not path.exists():
        pytest.skip("../shared/REGULATIONS.md is not beside the repository")
    return path.read_text(encoding="utf-8")


@pytest.fixture
def seed():
    """The text of one original regulation in ../shared/seeds, by file-name prefix ("001")."""

    def read(prefix: str) -> str:
        found = sorted((SHARED / "seeds").glob(f"{prefix}_*.txt"))
        if not found:
            pytest.skip(f"../shared/seeds/{prefix}_*.txt is not beside the repository")
        return found[0].read_text(encoding="utf-8")

    return read
