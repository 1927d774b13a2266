"""The players' monitor (`croupier billboard`): a read-only Textual app over the table's journal."""
