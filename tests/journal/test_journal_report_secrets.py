"""The shift report shows records through the one list of secret fields: a field put on that list
is "redacted" in the report without touching the report's code."""
from __future__ import annotations

import json

from croupier.cli import main as cli
from croupier.history import redaction

from journal_kit import write_closed_shift_with_raised_minimum


def test_a_field_on_the_secret_list_is_redacted_in_the_report(tmp_path, capsys, monkeypatch):
    path = write_closed_shift_with_raised_minimum(tmp_path / "journal.db")
    assert cli(["report", "--db", str(path), "--json"]) == 0
    (change,) = json.loads(capsys.readouterr().out)["limits"]
    assert (change["minimum"], change["reason"]) == ("10", "busy night")

    # Were `reason` a secret, it would be named once, in the list, and the report would hide it.
    # (--fresh: a new list comes with new code, and a fold saved by other code is not taken up.)
    monkeypatch.setattr(redaction, "SECRET_FIELDS", redaction.SECRET_FIELDS | {"reason"})
    assert cli(["report", "--db", str(path), "--json", "--fresh"]) == 0
    (change,) = json.loads(capsys.readouterr().out)["limits"]
    assert (change["minimum"], change["reason"]) == ("10", "redacted")
