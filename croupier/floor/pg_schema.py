"""What the PostgreSQL store adds for the casino's own tools: times as `timestamptz`, each event's
body also as `jsonb` (`data`; `body` keeps the text exactly as the table hashed and signed it), and
documented views an analyst reads through the read-only role `croupier_view`:

    floor_spins            every counted result with its latest correction (number, by whom, why)
    floor_results_hourly   per table and hour: spins, zeros, corrected spins, the numbers in order
    floor_alarm_log        every floor alarm with who acknowledged it and who resumed the table
    floor_croupier_duty    per table who was at the wheel, from when until when

The role is made by the database's administrator (README, "The floor server"); the ingester grants
it SELECT on the store's tables and views whenever it opens the store.
"""
from __future__ import annotations

import logging
from datetime import datetime

from croupier.floor.wire import loads

log = logging.getLogger(__name__)

READ_ROLE = "croupier_view"  # hw/floor-roles.sql makes it
# Columns that were TEXT in stores made before: turned into timestamptz where they still are.
TIME_COLUMNS = (("floor_events", "received"), ("floor_tables", "last_received"), ("floor_tables", "last_event_time"),
                ("floor_tables", "last_heard"), ("floor_tables", "anchor_time"), ("floor_tables", "behind_since"),
                ("floor_alarms", "raised"), ("floor_alarms", "acknowledged"), ("floor_alarms", "resumed"),
                ("floor_ingester", "beat"))

VIEWS = (
    """CREATE OR REPLACE VIEW floor_spins AS
    SELECT r.table_id, (r.data->>'spin')::int AS spin, r.at AS recorded_at,
           (r.data->>'number')::int AS recorded_number, c.number AS corrected_number, c.at AS corrected_at,
           c.by AS corrected_by, c.reason AS correction_reason,
           COALESCE(c.number, (r.data->>'number')::int) AS number,
           r.data->>'croupier' AS croupier, r.data->>'source' AS source, r.data->>'ball' AS ball,
           r.data->>'direction' AS direction, r.seq
    FROM floor_events r
    LEFT JOIN LATERAL (
        SELECT (e.data->>'number')::int AS number, e.at, e.data->>'by' AS by, e.data->>'reason' AS reason
        FROM floor_events e
        WHERE e.table_id = r.table_id AND e.kind = 'result-corrected' AND e.seq > r.seq
          AND e.data->>'spin' = r.data->>'spin'
          AND NOT EXISTS (SELECT 1 FROM floor_events n WHERE n.table_id = r.table_id AND n.kind = 'result-recorded'
                          AND n.seq > r.seq AND n.seq < e.seq AND n.data->>'spin' = r.data->>'spin')
        ORDER BY e.seq DESC LIMIT 1) c ON true
    WHERE r.kind = 'result-recorded'""",
    """CREATE OR REPLACE VIEW floor_results_hourly AS
    SELECT table_id, date_trunc('hour', recorded_at) AS hour, count(*) AS spins,
           count(*) FILTER (WHERE number = 0) AS zeros,
           count(*) FILTER (WHERE corrected_number IS NOT NULL) AS corrected,
           array_agg(number ORDER BY seq) AS numbers
    FROM floor_spins GROUP BY table_id, date_trunc('hour', recorded_at)""",
    """CREATE OR REPLACE VIEW floor_alarm_log AS
    SELECT table_id, event_seq, problem, raised, acknowledged_by, acknowledged, resumed_by, resumed
    FROM floor_alarms""",
    """CREATE OR REPLACE VIEW floor_croupier_duty AS
    SELECT table_id, croupier, since, until FROM (
        SELECT table_id, croupier, at AS since, lead(at) OVER (PARTITION BY table_id ORDER BY seq) AS until
        FROM (SELECT table_id, seq, at, data->>'croupier' AS croupier FROM floor_events WHERE kind = 'table-opened'
              UNION ALL
              SELECT table_id, seq, at, data->>'incoming' FROM floor_events
              WHERE kind = 'staff-relieved' AND data->>'role' = 'croupier'
              UNION ALL
              SELECT table_id, seq, at, NULL FROM floor_events WHERE kind = 'table-closed') AS changes
    ) AS duty WHERE croupier IS NOT NULL""",
)
VIEW_NAMES = ("floor_spins", "floor_results_hourly", "floor_alarm_log", "floor_croupier_duty")


def typed(time: str, body: str) -> tuple[datetime | None, str | None]:
    """The event's time and body as PostgreSQL will take them (timestamptz, jsonb); None for what it
    would refuse, so that one odd event never stops a batch (the exact text is kept beside)."""
    try:
        at: datetime | None = datetime.fromisoformat(time)
    except ValueError:
        at = None
    if at is not None and at.tzinfo is None:
        at = None
    try:
        loads(body)  # with orjson also what jsonb refuses that json reads (NaN, a lone surrogate)
        data: str | None = body if "\\u0000" not in body else None  # jsonb holds no NUL character
    except ValueError:
        data = None
    return at, data


def upgrade(conn) -> None:
    """Bring a store to this schema (in the caller's transaction): times typed, bodies as jsonb, the
    index the views read by, the views, and the read-only role's grants."""
    for table, column in TIME_COLUMNS:
        kind = conn.execute("SELECT data_type FROM information_schema.columns WHERE table_name = %s "
                            "AND column_name = %s", (table, column)).fetchone()
        if kind and kind[0] == "text":
            conn.execute(f"ALTER TABLE {table} ALTER COLUMN {column} TYPE timestamptz USING {column}::timestamptz")
    conn.execute("ALTER TABLE floor_events ADD COLUMN IF NOT EXISTS at timestamptz")
    conn.execute("ALTER TABLE floor_events ADD COLUMN IF NOT EXISTS data jsonb")
    conn.execute("CREATE INDEX IF NOT EXISTS floor_events_kind ON floor_events (table_id, kind, seq)")
    if conn.execute("SELECT 1 FROM floor_events WHERE data IS NULL AND at IS NULL LIMIT 1").fetchone():
        _fill_typed(conn)
    for view in VIEWS:
        conn.execute(view)
    if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (READ_ROLE,)).fetchone():
        conn.execute(f"GRANT USAGE ON SCHEMA public TO {READ_ROLE}")
        conn.execute(f"GRANT SELECT ON floor_events, floor_tables, floor_alarms, floor_ingester, floor_summaries, "
                     f"{', '.join(VIEW_NAMES)} TO {READ_ROLE}")


def _fill_typed(conn) -> None:
    """Events stored before `at` and `data` existed get them (row by row: an odd one stays NULL)."""
    rows = conn.execute("SELECT table_id, seq, time, body FROM floor_events WHERE data IS NULL AND at IS NULL").fetchall()
    with conn.cursor() as cur:
        cur.executemany("UPDATE floor_events SET at = %s, data = %s::jsonb WHERE table_id = %s AND seq = %s",
                        [(*typed(time, body), table_id, seq) for table_id, seq, time, body in rows])
    log.info("floor store: %d stored events given their typed time and jsonb body", len(rows))
