"""The report as the journal's readers take it: composed in `croupier.reports.shift`, named here too
for the report's cache and the table's checkpoints, which keep its fold."""
from __future__ import annotations

from croupier.reports.shift import REPORT_EVENTS, ReportFold, build_report, write_json

__all__ = ["REPORT_EVENTS", "ReportFold", "build_report", "write_json"]
