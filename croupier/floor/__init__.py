"""The casino floor: every table's journal published on NATS JetStream, ingested into one central
store (SQLite by default, PostgreSQL in production), checked link by link, and anchored back.

`wire` names the subjects and streams; `publisher` runs beside a table; `ingester` and `store` on
the floor server; `check` and `status` read the store. nats-py and psycopg are imported lazily,
by the modules that talk to them.
"""
