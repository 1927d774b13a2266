"""The shift and date-range report, composed once from the journal's projections (`croupier.history`):
`shift.build_report` folds the report's events into one model (the JSON `croupier report --json`
writes), and the text report, the PDF and the review render that one model."""
