"""The projections of the journal: every figure the report, the exports, the review and the
billboard show is computed here, once, from the journal's events.

Pure (standard library, `table`, `rules`, `stats`): the readers hand in records or entries and
present what comes back. The colour statements (`ledger`), the croupiers' figures (`croupiers`),
the counted spins with their corrections (`spins`), payouts on a corrected number (`payouts`), the
procedures, the timeline and the story of one spin. Records are the journal's plain records
(`(seq, dict)`, as `Journal.records` yields them); `records_of` turns decoded entries into them.
"""
