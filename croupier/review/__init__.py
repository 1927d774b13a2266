"""The pit boss review: a read-only Textual app over the journal (`croupier review --db PATH`).

The modules without "screen" or "pane" in their name hold no Textual code: they turn journal events
into the answers the screens show, and the exports reuse them."""
