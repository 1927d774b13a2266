"""The projections of the journal: every figure the report, the exports, the review and the
billboard show is computed here, once, from the journal's events.

Pure (standard library, `table`, `rules`, `stats`): the readers hand in the journal's typed events
and present what comes back. The colour statements (`ledger`), the croupiers' figures (`croupiers`),
the counted spins with their corrections (`spins`), payouts on a corrected number (`payouts`), the
procedures, the timeline and the story of one spin. Each projection folds `(seq, event)` pairs (as
`Journal.events` yields them, or `records.numbered` from decoded entries), its handlers keyed by
event class (`projection`).
"""
