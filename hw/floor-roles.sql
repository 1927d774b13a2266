-- The floor store's roles, run once by PostgreSQL's superuser in the floor's database
-- (hw/install-floor.sh does: runuser -u postgres -- psql -d floor -f hw/floor-roles.sql).
-- croupier_ingest writes: it owns the tables, which the ingester creates at its first start.
-- croupier_view reads: SELECT only, on every table the ingester has made or will make, and every
-- transaction read-only; a view that tried to write is refused by the server, not by a setting.
-- On one machine both log in by peer authentication (the units' own OS users): no passwords.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'croupier_ingest') THEN
        CREATE ROLE croupier_ingest LOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'croupier_view') THEN
        CREATE ROLE croupier_view LOGIN;
    END IF;
    EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database());
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO croupier_ingest, croupier_view', current_database());
END
$$;
ALTER ROLE croupier_view SET default_transaction_read_only = on;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE, CREATE ON SCHEMA public TO croupier_ingest;
GRANT USAGE ON SCHEMA public TO croupier_view;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO croupier_view;
ALTER DEFAULT PRIVILEGES FOR ROLE croupier_ingest IN SCHEMA public GRANT SELECT ON TABLES TO croupier_view;
