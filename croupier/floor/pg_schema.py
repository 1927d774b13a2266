"""What the PostgreSQL store adds for the casino's own tools: times as `timestamptz`, each event's
body also as `jsonb` (`data`; `body` keeps the text exactly as the table hashed and signed it), and
documented views an analyst reads through the read-only role `croupier_view`:

    floor_spins            every counted result with its latest correction (number, by whom, why)
    floor_results_hourly   per table and hour: spins, zeros, corrected spins, the numbers in order
    floor_alarm_log        every floor alarm and how it ended: taken up on the floor, or at its table by
                           the event that acknowledged or ended it (by whom, when); the table resumed
    floor_croupier_duty    per table who was at the wheel, from when until when

and the pit bosses' role `croupier_pitboss` (the floor view served in a browser), which reads what
the view reads and writes nothing but acknowledgements: only through the two functions below, which
run as the store's owner, take up an alarm that is still open, under a checked name, at the server's
time, and nothing else. The roles are made by the database's administrator (hw/floor-roles.sql); the
ingester grants them what they may whenever it opens the store.
"""
from __future__ import annotations

import logging
from datetime import datetime
from functools import cache
from typing import Sequence

from croupier.floor.wire import loads
from croupier.table.names import MAX_NAME


log = logging.getLogger(__name__)

READ_ROLE = "croupier_view"  # hw/floor-roles.sql makes it
ACKNOWLEDGE_ROLE = "croupier_pitboss"  # and this one
# What either role reads: every table the view's queries touch, and the views.
READ_TABLES = ("floor_events", "floor_tables", "floor_alarms", "floor_refusals", "floor_ingester", "floor_summaries",
               "floor_changes")
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
    # How each alarm ended: taken up on the floor (by whom, when) or at the table (the table's event
    # that acknowledged or ended it: a relief, a ball swap, a correction or a pit boss's clearing, by
    # whom, when it happened there), the table resumed after a broken chain.
    f"""CREATE OR REPLACE VIEW floor_alarm_log AS
    SELECT a.table_id, a.event_seq, a.problem, a.raised, a.acknowledged_by, a.acknowledged, a.resumed_by, a.resumed,
           a.kind,
           CASE WHEN a.acknowledged IS NULL THEN NULL
                WHEN a.acknowledged_at_table THEN 'table'
                ELSE 'floor' END AS acknowledged_where,
           a.answer_seq,
           CASE WHEN e.kind IS NULL THEN NULL WHEN e.kind = 'alarm-acknowledged' THEN 'acknowledged'
                ELSE COALESCE(e.data->>'answer', 'cleared') END AS answer,
           e.data->>'by' AS answered_by, e.at AS answered, e.data->>'note' AS answer_note
    FROM floor_alarms a LEFT JOIN floor_events e ON e.table_id = a.table_id AND e.seq = a.answer_seq""",
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

# The pit bosses' acknowledgements, as the store's owner runs them (SECURITY DEFINER, its search path
# fixed): an alarm still open, a name as `croupier.floor.alarms.name_problem` checks one (the server
# checks it again: a login that skips croupier gets no further), the server's time, and the change
# counter the views read by. Nothing else can be written through them: an acknowledgement is never
# overwritten or taken back.
# Controls, line breaks, bidirectional overrides, zero-width and tag characters (names.CONTROL_CATEGORIES).
CONTROLS = (r"[\x01-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff"
            r"\ufff9-\ufffb\U000e0001-\U000e007f]")
NAME_CHECK = f"""
    IF by_name IS NULL OR length(btrim(by_name)) NOT BETWEEN 1 AND {MAX_NAME} OR by_name ~ '{CONTROLS}'
       OR by_name ~ '[][<>]' THEN
        RAISE EXCEPTION 'not a name to record: 1-{MAX_NAME} characters, no control characters, no markup'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;"""
# The change number, taken before any row as every writer takes it (no deadlock), once there is one to change.
CHANGE = """
    INSERT INTO floor_changes (id, n) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = floor_changes.n + 1
        RETURNING floor_changes.n INTO change;"""
FUNCTIONS = {
    "floor_acknowledge_alarm(text, bigint, text)": f"""
    CREATE OR REPLACE FUNCTION floor_acknowledge_alarm(alarm_table text, alarm_event bigint, by_name text)
    RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    DECLARE change bigint; taken integer;
    BEGIN{NAME_CHECK}
        IF NOT EXISTS (SELECT FROM floor_alarms WHERE table_id = alarm_table AND event_seq = alarm_event
                       AND acknowledged IS NULL) THEN
            RETURN false;
        END IF;{CHANGE}
        UPDATE floor_alarms SET acknowledged_by = by_name, acknowledged = now(), change_no = change
            WHERE table_id = alarm_table AND event_seq = alarm_event AND acknowledged IS NULL;
        GET DIAGNOSTICS taken = ROW_COUNT;
        RETURN taken = 1;
    END $$""",
    "floor_acknowledge_refusals(text, text)": f"""
    CREATE OR REPLACE FUNCTION floor_acknowledge_refusals(refused_subject text, by_name text)
    RETURNS integer LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    DECLARE change bigint; taken integer;
    BEGIN{NAME_CHECK}
        IF NOT EXISTS (SELECT FROM floor_refusals WHERE subject = refused_subject AND acknowledged IS NULL) THEN
            RETURN 0;
        END IF;{CHANGE}
        UPDATE floor_refusals SET acknowledged_by = by_name, acknowledged = now(), change_no = change
            WHERE subject = refused_subject AND acknowledged IS NULL;
        GET DIAGNOSTICS taken = ROW_COUNT;
        RETURN taken;
    END $$""",
}
ACKNOWLEDGE_ALARM = next(iter(FUNCTIONS))  # a login that may run it acknowledges


EVENT_COLUMNS = ("table_id", "seq", "time", "kind", "body", "prev_hash", "hash", "mac", "received", "sig", "at", "data")
_EVENT_TYPES = ("text", "int8", "text", "text", "text", "text", "text", "text", "timestamptz", "text", "timestamptz",
                "jsonb")
JSONB_OID = 3802  # PostgreSQL's own, fixed


def copy_events(conn, rows: Sequence[tuple]) -> None:
    """Rows of `EVENT_COLUMNS` (`received` and `at` as aware datetimes, `data` JSON text `typed` let
    through) into floor_events with one binary COPY: nothing to escape, for the client or the server."""
    with conn.cursor() as cur:
        cur.adapters.register_dumper(None, _json_text())
        with cur.copy(f"COPY floor_events ({', '.join(EVENT_COLUMNS)}) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(_EVENT_TYPES)
            for row in rows:
                copy.write_row(row)


@cache
def _json_text() -> type:
    """A dumper of JSON text as jsonb's binary form (a version byte, then the text), for the column
    given its type (psycopg's own would write a text as a JSON string)."""
    from psycopg import pq
    from psycopg.adapt import Dumper

    class JsonText(Dumper):
        format, oid = pq.Format.BINARY, JSONB_OID

        def dump(self, obj: str) -> bytes:
            return b"\x01" + obj.encode()

    return JsonText


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
    index the views read by, the views, the acknowledging functions, and the roles' grants."""
    kinds = {(table, column): kind for table, column, kind in conn.execute(
        "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = "
        "current_schema() AND table_name = ANY(%s)", (sorted({table for table, _ in TIME_COLUMNS}),)).fetchall()}
    for table, column in TIME_COLUMNS:
        if kinds.get((table, column)) == "text":
            conn.execute(f"ALTER TABLE {table} ALTER COLUMN {column} TYPE timestamptz USING {column}::timestamptz")
    conn.execute("ALTER TABLE floor_events ADD COLUMN IF NOT EXISTS at timestamptz")
    conn.execute("ALTER TABLE floor_events ADD COLUMN IF NOT EXISTS data jsonb")
    conn.execute("CREATE INDEX IF NOT EXISTS floor_events_kind ON floor_events (table_id, kind, seq)")
    # The events without their typed copies, found without reading every event at each start (a
    # year of a floor is hundreds of millions): an index of those alone, which the others never enter.
    conn.execute("CREATE INDEX IF NOT EXISTS floor_events_untyped ON floor_events (table_id, seq) "
                 "WHERE data IS NULL AND at IS NULL")
    if conn.execute("SELECT 1 FROM floor_events WHERE data IS NULL AND at IS NULL LIMIT 1").fetchone():
        _fill_typed(conn)
    for view in VIEWS:  # a view's new columns come after its old ones: replaced in place, its grants kept
        conn.execute(view)
    for signature, function in FUNCTIONS.items():
        conn.execute(function)
        conn.execute(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC")  # PostgreSQL lets everyone run one
    roles = {name for (name,) in conn.execute("SELECT rolname FROM pg_roles WHERE rolname IN (%s, %s)",
                                              (READ_ROLE, ACKNOWLEDGE_ROLE)).fetchall()}
    for role in sorted(roles):
        conn.execute(f"GRANT USAGE ON SCHEMA public TO {role}")
        conn.execute(f"GRANT SELECT ON {', '.join(READ_TABLES + VIEW_NAMES)} TO {role}")
    if ACKNOWLEDGE_ROLE in roles:
        conn.execute(f"GRANT EXECUTE ON FUNCTION {', '.join(FUNCTIONS)} TO {ACKNOWLEDGE_ROLE}")


def _fill_typed(conn) -> None:
    """Events stored before `at` and `data` existed get them (row by row: an odd one stays NULL)."""
    rows = conn.execute("SELECT table_id, seq, time, body FROM floor_events WHERE data IS NULL AND at IS NULL").fetchall()
    with conn.cursor() as cur:
        cur.executemany("UPDATE floor_events SET at = %s, data = %s::jsonb WHERE table_id = %s AND seq = %s",
                        [(*typed(time, body), table_id, seq) for table_id, seq, time, body in rows])
    log.info("floor store: %d stored events given their typed time and jsonb body", len(rows))
