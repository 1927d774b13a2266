#!/usr/bin/env bash
# Install the casino floor's server on Debian 12 (bookworm) or Raspberry Pi OS 64-bit, as root:
# a NATS JetStream node (Debian's nats-server), PostgreSQL with the floor's three roles (the ingester
# writes, the view reads, the pit bosses' view reads and acknowledges alarms), croupier's ingester
# and, with --view-web, the floor view in a browser on localhost. hw/floor.md walks through it, the cluster, the tables' credentials and the pages on the LAN.
#
#   sudo hw/install-floor.sh --dry-run     # print every step, change nothing
#   sudo hw/install-floor.sh [--view-web]  # install, or upgrade in place: node 1, with the store and the ingester
#   sudo hw/install-floor.sh --nats-only --node floor2   # the cluster's other nodes: a NATS node only
#
# Safe to run again: users, roles, the database and the files in /etc/croupier are kept.
set -euo pipefail

usage() {
    cat <<'TXT'
usage: hw/install-floor.sh [--dry-run] [--view-web] [--nats-only] [--node NAME] [--wheelhouse DIR]

  --dry-run         print the steps without changing anything
  --view-web        also serve the floor view in a browser on localhost:8081 (installs textual-serve)
  --nats-only       a NATS node only (the cluster's nodes 2 and 3): no PostgreSQL, ingester or view
  --node NAME       this node's server_name in a new nats-server.conf (default floor1)
  --wheelhouse DIR  install Python packages from DIR only (no internet)
TXT
}

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=${CROUPIER_INSTALL_ROOT:-}  # the tests' scratch tree, with the system commands replaced
IMAGE=
VENV=/opt/croupier/venv
ETC=/etc/croupier
DATABASE=floor
# One user per service: NATS, the ingester (PostgreSQL role croupier_ingest), a view that only reads
# (croupier_view), the pit bosses' view in a browser (croupier_pitboss: it also acknowledges alarms).
NATS_USER=croupier_nats INGEST_USER=croupier_ingest VIEW_USER=croupier_view PITBOSS_USER=croupier_pitboss

refuse() { echo "install-floor.sh: $*" >&2; exit 2; }  # a wrong option or a machine set up otherwise

DRY_RUN=0 VIEW_WEB=0 NATS_ONLY=0 NODE=floor1 NODE_GIVEN=0 WHEELHOUSE=
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --view-web) VIEW_WEB=1 ;;
        --nats-only) NATS_ONLY=1 ;;
        --node)
            # Not starting with '-': `--node --nats-only` must not take the option as the name.
            [[ $# -ge 2 && $2 =~ ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$ ]] ||
                refuse "--node needs a name of letters, digits, '_' or '-', starting with a letter or digit"
            NODE=$2 NODE_GIVEN=1
            shift
            ;;
        --wheelhouse)
            [ $# -ge 2 ] || refuse "--wheelhouse needs a directory"
            WHEELHOUSE=$2
            shift
            ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install-floor.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
if [ -n "$WHEELHOUSE" ]; then
    [ -d "$WHEELHOUSE" ] || refuse "--wheelhouse: no directory $WHEELHOUSE"
    WHEELHOUSE=$(cd "$WHEELHOUSE" && pwd)
fi
[ "$NATS_ONLY" = 1 ] && [ "$VIEW_WEB" = 1 ] && refuse "--view-web serves the store of node 1; a --nats-only node has none"
# A machine already set up keeps its part: a NATS-only node (server_name floor2, say) is never made
# node 1 by an upgrade run without --nats-only, which would start a second ingester with its own store.
installed_name=
if [ -r "$ROOT$ETC/nats-server.conf" ]; then
    installed_name=$(sed -n 's/^[[:space:]]*server_name[[:space:]]*[:=][[:space:]]*["'"'"']\{0,1\}\([A-Za-z0-9_-]*\).*/\1/p' \
        "$ROOT$ETC/nats-server.conf" | head -n 1)
fi
if [ -n "$installed_name" ] && [ "$installed_name" != "$NODE" ] && { [ "$NATS_ONLY" = 0 ] || [ "$NODE_GIVEN" = 1 ]; }; then
    refuse "this machine's /etc/croupier/nats-server.conf names server $installed_name, not $NODE: run it with --node $installed_name (and --nats-only on nodes 2 and 3)"
fi
# Node 1 (the ingester's floor.env is there) is never made a NATS node only by a run with --nats-only:
# it would say there is no store here and upgrade croupier under the running ingester and view
# without restarting them or the roles. A new NATS-only node is named: the default is node 1's name.
if [ "$NATS_ONLY" = 1 ]; then
    [ -e "$ROOT$ETC/floor.env" ] && refuse "this machine is node 1 (it has $ETC/floor.env, the ingester's): run it without --nats-only"
    [ -z "$installed_name" ] && [ "$NODE_GIVEN" = 0 ] && refuse "a new NATS-only node needs its name: --nats-only --node floor2 (or floor3)"
fi
# From /: the service users' commands (runuser) start in a directory they may enter.
cd /
if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    echo "install-floor.sh: run it as root (sudo hw/install-floor.sh), or with --dry-run to see the steps" >&2
    exit 1
fi
# shellcheck source=hw/install-common.sh
. "$SRC/hw/install-common.sh"
[ "$DRY_RUN" = 1 ] && echo "Dry run: nothing is changed."

step "System packages"
# Debian's nats-server is the production broker (not PyPI's repackaging); psycopg, cryptography and
# bcrypt (the logins' hashes) from Debian too, so nothing is compiled on any architecture.
run apt-get update
packages=(python3-venv python3-psycopg python3-cryptography python3-cffi python3-bcrypt postgresql nats-server)
users=("$NATS_USER" "$INGEST_USER" "$VIEW_USER" "$PITBOSS_USER")
if [ "$NATS_ONLY" = 1 ]; then  # the store, its roles and the ingester are node 1's alone
    packages=(python3-venv python3-cryptography python3-cffi nats-server)
    users=("$NATS_USER")
fi
run env DEBIAN_FRONTEND=noninteractive apt-get install -y "${packages[@]}"
# Debian's package starts a broker of its own on 4222 (no JetStream): stopped and masked at once, so a
# later step that fails leaves no stray broker enabled at boot; ours takes its place.
[ "$LIVE" = 1 ] && run systemctl stop nats-server.service
systemctl_ mask nats-server.service

step "One system user per service"
for user in "${users[@]}"; do
    if has_entry passwd "$user"; then
        note "user $user exists"
    else
        shadow useradd --system --user-group --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin "$user"
    fi
done

step "croupier in $VENV"
extras=floor
[ "$VIEW_WEB" = 1 ] && extras=floor,web  # the view's server: croupier.web over textual-serve
install_croupier "$extras"
# The NATS unit starts $VENV/bin/nats-server: here that is Debian's binary.
run ln -sfn /usr/sbin/nats-server "$ROOT$VENV/bin/nats-server"

if [ "$NATS_ONLY" = 0 ]; then
    step "PostgreSQL: the database $DATABASE and its roles"
    if ask runuser -u postgres -- psql -tAc "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'" 2>/dev/null | grep -q 1; then
        note "database $DATABASE exists"
    else
        run runuser -u postgres -- createdb "$DATABASE"
    fi
    # Run again on every upgrade: it changes nothing that is already so. The file goes to psql on its
    # stdin: postgres may not open the tree this runs from (a clone in /root, say).
    if [ "$DRY_RUN" = 1 ]; then
        printf '+ runuser -u postgres -- psql -v ON_ERROR_STOP=1 -q -d %s -f - < %q\n' "$DATABASE" "$SRC/hw/floor-roles.sql"
    else
        runuser -u postgres -- psql -v ON_ERROR_STOP=1 -q -d "$DATABASE" -f - <"$SRC/hw/floor-roles.sql"
    fi
fi

step "Configuration in $ETC"
run mkdir -p "$ROOT$ETC"
if [ -e "$ROOT$ETC/nats-server.conf" ]; then
    note "$ETC/nats-server.conf exists: kept as it is"
else
    # Safe until configured: this machine only. The tables' credentials, TLS and the cluster are in
    # hw/floor.md; the listener goes on the LAN with them, never before.
    write_file "$ROOT$ETC/nats-server.conf" 0640 <<CONF
# This floor node's NATS server. It listens on this machine only until the tables' credentials,
# TLS and the cluster routes are set: hw/floor.md, "NATS for the tables".
server_name: $NODE
listen: 127.0.0.1:4222
jetstream { store_dir: /var/lib/croupier-nats }
CONF
    run chgrp "$NATS_USER" "$ROOT$ETC/nats-server.conf"
fi
if [ "$NATS_ONLY" = 1 ]; then
    note "a NATS node only: no store, ingester or view here"
else
    # Peer authentication over PostgreSQL's socket: each unit's own user is its role, no password.
    if [ -e "$ROOT$ETC/floor.env" ]; then
        note "$ETC/floor.env exists: kept as it is"
    else
        write_file "$ROOT$ETC/floor.env" 0600 <<ENV
CROUPIER_FLOOR_STORE=postgresql:///$DATABASE?host=/run/postgresql
CROUPIER_FLOOR_NATS=nats://127.0.0.1:4222
# With the tables' logins and TLS (hw/floor.md, "NATS for the tables"): the ingester's own login
# and the casino's CA, and CROUPIER_FLOOR_NATS=tls://NAME:4222 with the name in the node's certificate.
CROUPIER_FLOOR_SERVE_OPTIONS=
ENV
    fi
    if [ -e "$ROOT$ETC/floor-view.env" ]; then
        note "$ETC/floor-view.env exists: kept as it is"
    else
        write_file "$ROOT$ETC/floor-view.env" 0644 <<ENV
CROUPIER_FLOOR_STORE=postgresql:///$DATABASE?host=/run/postgresql
ENV
    fi
fi

step "Services"
units=(croupier-floor-nats.service)
[ "$NATS_ONLY" = 0 ] && units+=(croupier-floor-serve.service)
[ "$VIEW_WEB" = 1 ] && units+=(croupier-floor-view-web.service)
run mkdir -p "$ROOT/etc/systemd/system"
for unit in "${units[@]}"; do
    run install -m 0644 "$SRC/systemd/$unit" "$ROOT/etc/systemd/system/$unit"
done
[ "$LIVE" = 1 ] && run systemctl daemon-reload
systemctl_ enable "${units[@]}"
if [ "$LIVE" = 1 ]; then
    [ "$DRY_RUN" = 1 ] || note "restarting ${units[*]}"  # a dry run shows the command itself
    run systemctl restart "${units[@]}"
    step "Sandbox (systemd-analyze security: 4.0 or less is the floor's bar)"
    for unit in "${units[@]}"; do
        if [ "$DRY_RUN" = 1 ]; then
            run systemd-analyze security --no-pager "$unit"
        else
            note "$(systemd-analyze security --no-pager "$unit" 2>/dev/null | tail -n 1)"
        fi
    done
fi
if [ "$NATS_ONLY" = 1 ]; then
    note "next: this node's certificate, the same users and routes as node 1 (hw/floor.md, \"Nodes 2 and 3\")"
else
    note "next: the tables' credentials and TLS (hw/floor.md); the floor as the view's role sees it:"
    note "runuser -u $VIEW_USER -- $VENV/bin/croupier floor status --store 'postgresql:///$DATABASE?host=/run/postgresql'"
fi
