#!/usr/bin/env bash
# Install croupier on Raspberry Pi OS (Bookworm) from this source tree, as root:
#
#   sudo hw/install.sh --dry-run     # print every step, change nothing
#   sudo hw/install.sh               # install, or upgrade in place
#
# Safe to run again: existing users, the virtualenv and /etc/croupier/croupier.toml are kept;
# the package, the udev rule and the unit files are refreshed. hw/README.md walks through it.
set -euo pipefail

usage() {
    cat <<'TXT'
usage: hw/install.sh [--dry-run] [--billboard] [--review-web] [--boot-config] [--wheelhouse DIR]

  --dry-run         print the steps without changing anything
  --billboard       also run the players' billboard on tty2 (croupier-billboard.service)
  --review-web      also serve `croupier review` on the LAN (installs textual-serve)
  --boot-config     add hw/config.txt.snippet to the boot config (wheel on the Pi's own UART)
  --wheelhouse DIR  install Python packages from DIR only (no internet): see hw/README.md
TXT
}

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Files go under ROOT (default /); the tests set it to install into a scratch tree, with the
# system commands (apt-get, useradd, systemctl...) replaced.
ROOT=${CROUPIER_INSTALL_ROOT:-}
MODEL_FILE=${CROUPIER_MODEL_FILE:-/proc/device-tree/model}
USER_NAME=croupier
VENV=/opt/croupier/venv
ETC=/etc/croupier
STATE=/var/lib/croupier

DRY_RUN=0 BILLBOARD=0 REVIEW_WEB=0 BOOT_CONFIG=0 WHEELHOUSE=
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --billboard) BILLBOARD=1 ;;
        --review-web) REVIEW_WEB=1 ;;
        --boot-config) BOOT_CONFIG=1 ;;
        --wheelhouse)
            [ $# -ge 2 ] || { echo "install.sh: --wheelhouse needs a directory" >&2; exit 2; }
            WHEELHOUSE=$2
            shift
            ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

step() { printf '\n== %s\n' "$*"; }
note() { printf '   %s\n' "$*"; }

# Run a command that changes the system, or only show it in a dry run.
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '+'; printf ' %q' "$@"; printf '\n'
    else
        "$@"
    fi
}

# Write stdin to a file (mode $2), or only show it in a dry run.
write_file() {
    local path=$1 mode=$2
    if [ "$DRY_RUN" = 1 ]; then
        printf '+ write %s (mode %s):\n' "$path" "$mode"
        sed 's/^/|   /'
    else
        local tmp
        tmp=$(mktemp "$path.XXXXXX")
        cat >"$tmp"
        chmod "$mode" "$tmp"
        mv -f "$tmp" "$path"
    fi
}

if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it as root (sudo hw/install.sh), or with --dry-run to see the steps" >&2
    exit 1
fi
[ "$DRY_RUN" = 1 ] && echo "Dry run: nothing is changed."

step "Which Raspberry Pi this is"
model=$(tr -d '\0' 2>/dev/null <"$MODEL_FILE" || true)
case "$model" in
    "Raspberry Pi 5"* | "Raspberry Pi 500"* | "Raspberry Pi Compute Module 5"*)
        pin_driver=python3-lgpio ;;  # RPi.GPIO cannot drive a Pi 5
    "Raspberry Pi"*)
        pin_driver=python3-rpi.gpio ;;
    *)
        pin_driver= ;;
esac
if [ -n "$pin_driver" ]; then
    note "$model: the GPIO pin driver is $pin_driver"
else
    note "not a Raspberry Pi (${model:-no device-tree model}): no pin driver; GPIO keypads and display boards will not work"
fi
if ! grep -qs '^VERSION_CODENAME=bookworm' /etc/os-release; then
    note "warning: this is written for Raspberry Pi OS Bookworm; check each step on this system"
fi

step "System packages"
run apt-get update
run env DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv python3-gpiozero fonts-dejavu-core ${pin_driver:+"$pin_driver"}

step "The $USER_NAME user, in the dialout (serial) and gpio groups"
for group in dialout gpio; do
    getent group "$group" >/dev/null || run groupadd --system "$group"
done
if getent passwd "$USER_NAME" >/dev/null; then
    note "user $USER_NAME exists"
else
    run useradd --system --user-group --home-dir "$STATE" --no-create-home --shell /usr/sbin/nologin "$USER_NAME"
fi
for group in dialout gpio; do
    run usermod --append --groups "$group" "$USER_NAME"
done

step "croupier in a virtualenv that sees the system's GPIO packages"
if [ -x "$ROOT$VENV/bin/python" ]; then
    note "$VENV exists"
else
    run mkdir -p "$ROOT$(dirname "$VENV")"
    run python3 -m venv --system-site-packages "$ROOT$VENV"
fi
pip_from=()
[ -n "$WHEELHOUSE" ] && pip_from=(--no-index --find-links "$WHEELHOUSE")
packages=("$SRC")
[ "$REVIEW_WEB" = 1 ] && packages+=(textual-serve)
run "$ROOT$VENV/bin/pip" install --disable-pip-version-check --upgrade "${pip_from[@]}" "${packages[@]}"

step "The journal's directory"
# The table service's StateDirectory= owns it; made now so that croupier doctor finds it.
run install -d -m 0750 "$ROOT$STATE"
run chown "$USER_NAME:$USER_NAME" "$ROOT$STATE"

step "Configuration in $ETC"
run mkdir -p "$ROOT$ETC"
# Every key with its default, for reference; croupier.toml holds what this table changes.
run install -m 0644 "$SRC/croupier/default-config.toml" "$ROOT$ETC/default-config.toml"
if [ -e "$ROOT$ETC/croupier.toml" ]; then
    note "$ETC/croupier.toml exists: kept as it is"
else
    write_file "$ROOT$ETC/croupier.toml" 0644 <<TOML
# This table's configuration: only what differs from the defaults in default-config.toml
# (beside this file), which lists every key. Check it with: croupier doctor
# No PINs here: they are set at the table.

[table]
id = "T1"
name = "Roleta 1"
profile = "pt-americana"
minimum = 5
currency = "EUR"
language = "pt"

[wheel]
protocol = "cammegh-ss2"          # or none: results typed on the keypad
device = "/dev/croupier-wheel"

[journal]
path = "$STATE/journal.db"
key = "$STATE/table.key"          # the table's key, made 0600 with the first journal: back it up apart

[logging]
file = "$STATE/croupier.log"
TOML
fi

step "The wheel's serial adapter gets a stable name (udev)"
rule=$SRC/hw/99-croupier-wheel.rules
if [ ! -f "$rule" ]; then
    echo "install.sh: $rule is missing from the source tree" >&2
    exit 1
fi
run mkdir -p "$ROOT/etc/udev/rules.d"
run install -m 0644 "$rule" "$ROOT/etc/udev/rules.d/99-croupier-wheel.rules"
run udevadm control --reload-rules
run udevadm trigger --subsystem-match=tty

if [ "$BOOT_CONFIG" = 1 ]; then
    step "Boot configuration: the Pi's UART for the wheel (takes effect at the next boot)"
    boot=$ROOT/boot/firmware/config.txt
    [ -f "$boot" ] || boot=$ROOT/boot/config.txt
    snippet=$SRC/hw/config.txt.snippet
    [ -f "$snippet" ] || { echo "install.sh: $snippet is missing from the source tree" >&2; exit 1; }
    # Replace our own block, so running again never adds it twice.
    {
        sed '/^# BEGIN croupier$/,/^# END croupier$/d' "$boot" 2>/dev/null || true
        echo "# BEGIN croupier"
        cat "$snippet"
        echo "# END croupier"
    } | write_file "$boot" 0644
    # The UART is the wheel's: no login console on it.
    if command -v raspi-config >/dev/null; then
        run raspi-config nonint do_serial_cons 1
    fi
fi

step "Services"
units=(croupier-table.service)
ttys=(tty1)
[ "$BILLBOARD" = 1 ] && units+=(croupier-billboard.service) && ttys+=(tty2)
[ "$REVIEW_WEB" = 1 ] && units+=(croupier-review-web.service)
run mkdir -p "$ROOT/etc/systemd/system"
for unit in "${units[@]}"; do
    run install -m 0644 "$SRC/systemd/$unit" "$ROOT/etc/systemd/system/$unit"
done
run systemctl daemon-reload
# The screens take these consoles: no login prompt under them.
for tty in "${ttys[@]}"; do
    run systemctl disable "getty@$tty.service"
done
run systemctl enable "${units[@]}"
# An upgrade restarts what was running; a first install starts at the next boot.
run systemctl try-restart "${units[@]}"

step "Check"
run "$ROOT$VENV/bin/croupier" doctor --config "$ROOT$ETC/croupier.toml" || note "fix what doctor reports, then run it again"
note "edit $ETC/croupier.toml for this table, then reboot (or: systemctl start croupier-table)"
