"""Which code made a report's fold: a fold saved (report_cache) or kept (checkpoints) by other code
is not taken up, since other code may fold the same events to other figures."""
from __future__ import annotations

import hashlib
from pathlib import Path


def stamp() -> str:
    """The SHA-256 of the code that makes the fold's figures: the report, every projection, the
    fold's format, and the events the projections fold as the codec reads them (a fold holds some).
    Found beside this module, not imported: the table asks at start."""
    here = Path(__file__)
    table = here.parents[1] / "table"
    digest = hashlib.sha256()
    for path in [here.with_name("report.py"), here.with_name("fold_codec.py"),
                 *sorted((here.parents[1] / "reports").glob("*.py")),
                 *sorted((here.parents[1] / "history").glob("*.py")), table / "events.py", table / "codec.py"]:
        digest.update(path.read_bytes())
    return digest.hexdigest()
