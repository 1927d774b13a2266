-- The floor store's roles, run once by PostgreSQL's superuser in the floor's database
-- (hw/install-floor.sh does: runuser -u postgres -- psql -d floor -f hw/floor-roles.sql).
-- croupier_ingest writes: it owns the tables, which the ingester creates at its first start.
-- croupier_view reads: SELECT only, on every table the ingester has made or will make, and every
-- transaction read-only; a view that tried to write is refused by the server, not by a setting.
-- croupier_pitboss is the floor view pit bosses use in a browser: it reads as croupier_view does and
-- writes nothing but acknowledgements, through the two functions the ingester makes (it may run
-- floor_acknowledge_alarm and floor_acknowledge_refusals, and update, insert or delete no row).
-- On one machine each logs in by peer authentication (the units' own OS users): no passwords.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'croupier_ingest') THEN
        CREATE ROLE croupier_ingest LOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'croupier_view') THEN
        CREATE ROLE croupier_view LOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'croupier_pitboss') THEN
        CREATE ROLE croupier_pitboss LOGIN;
    END IF;
    EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database());
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO croupier_ingest, croupier_view, croupier_pitboss',
                   current_database());
    -- The acknowledging functions, once the ingester has made them (it grants them at every start too).
    IF to_regprocedure('floor_acknowledge_alarm(text, bigint, text)') IS NOT NULL THEN
        GRANT EXECUTE ON FUNCTION floor_acknowledge_alarm(text, bigint, text),
            floor_acknowledge_refusals(text, text) TO croupier_pitboss;
    END IF;
END
$$;
ALTER ROLE croupier_view SET default_transaction_read_only = on;
-- An acknowledgement holds the store's change counter until it commits, as every write does: a pit
-- bosses' session left idle inside a transaction is ended, so it never holds up the ingester for long.
ALTER ROLE croupier_pitboss SET idle_in_transaction_session_timeout = '10s';
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE, CREATE ON SCHEMA public TO croupier_ingest;
GRANT USAGE ON SCHEMA public TO croupier_view, croupier_pitboss;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO croupier_view, croupier_pitboss;
ALTER DEFAULT PRIVILEGES FOR ROLE croupier_ingest IN SCHEMA public GRANT SELECT ON TABLES TO croupier_view, croupier_pitboss;
-- A function the ingester makes runs for nobody else until it grants it (PostgreSQL's default is everyone).
ALTER DEFAULT PRIVILEGES FOR ROLE croupier_ingest REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;
