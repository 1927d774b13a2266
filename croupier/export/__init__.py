"""Exports of the journal for paper and spreadsheets: CSV of spins and of events, and a PDF shift
report that prints the journal's head hash. `croupier review --csv-spins/--csv-events/--pdf` writes
them; each function writes to an open file so a report can call it too."""
