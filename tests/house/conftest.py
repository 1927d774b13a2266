"""The house tests use the screen tests' kit (a staffed journal, keys, the screen as text)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))
