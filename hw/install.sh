#!/usr/bin/env bash
# Install croupier on Raspberry Pi OS (Bookworm) from this source tree, as root:
#
#   sudo hw/install.sh --dry-run     # print every step, change nothing
#   sudo hw/install.sh               # install, or upgrade in place
#   sudo hw/install.sh --root /mnt   # prepare a mounted Raspberry Pi OS root (an SD image) offline
#
# Safe to run again: existing users, the virtualenv and /etc/croupier/croupier.toml are kept;
# the package, the udev rule and the unit files are refreshed. croupier is built as a wheel from a
# clean copy of this tree in a temporary folder (nothing is written into the tree) and reinstalled
# from it, so an upgrade also removes what the new version no longer has. hw/README.md walks through it.
set -euo pipefail

usage() {
    cat <<'TXT'
usage: hw/install.sh [--dry-run] [--root DIR] [--billboard] [--review-web] [--boot-config] [--wheelhouse DIR]

  --dry-run         print the steps without changing anything
  --root DIR        prepare the Raspberry Pi OS root mounted at DIR (an SD image), not this machine:
                    commands run in it by chroot (qemu-user-static for another architecture),
                    units are enabled by links, nothing needs the image to be running
  --billboard       also run the players' billboard on tty2 (croupier-billboard.service)
  --review-web      also serve `croupier review` in a browser on localhost:8080 (installs textual-serve; the LAN through nginx, hw/floor.md)
  --boot-config     add hw/config.txt.snippet to the boot config (wheel on the Pi's own UART)
  --wheelhouse DIR  install Python packages from DIR only (no internet): see hw/README.md
TXT
}

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Files go under ROOT (default /); the tests set it to install into a scratch tree, with the
# system commands (apt-get, useradd, systemctl...) replaced. --root sets it too, and IMAGE: the
# system commands then run inside that root.
ROOT=${CROUPIER_INSTALL_ROOT:-}
IMAGE=
MODEL_FILE=${CROUPIER_MODEL_FILE:-/proc/device-tree/model}
USER_NAME=croupier
VENV=/opt/croupier/venv
ETC=/etc/croupier
STATE=/var/lib/croupier

DRY_RUN=0 BILLBOARD=0 REVIEW_WEB=0 BOOT_CONFIG=0 WHEELHOUSE=
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --root)
            [ $# -ge 2 ] && [ -d "$2" ] || { echo "install.sh: --root needs the mounted root's directory" >&2; exit 2; }
            ROOT=$(cd "$2" && pwd)
            [ "$ROOT" = / ] && ROOT=
            IMAGE=$ROOT
            shift
            ;;
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

if [ "$DRY_RUN" = 0 ] && { [ -z "$ROOT" ] || [ -n "$IMAGE" ]; } && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it as root (sudo hw/install.sh), or with --dry-run to see the steps" >&2
    exit 1
fi
[ "$DRY_RUN" = 1 ] && echo "Dry run: nothing is changed."
[ -n "$IMAGE" ] && echo "Preparing the root at $IMAGE: nothing on this machine changes."

# The steps' helpers (dry run, the image's chroot, the wheel), shared with install-floor.sh.
# shellcheck source=hw/install-common.sh
. "$SRC/hw/install-common.sh"

step "Which Raspberry Pi this is"
model=$(tr -d '\0' 2>/dev/null <"$MODEL_FILE" || true)
[ -n "$IMAGE" ] && [ -z "${CROUPIER_MODEL_FILE:-}" ] && model="Raspberry Pi (an image for any model)"
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
if ! grep -qs '^VERSION_CODENAME=bookworm' "$ROOT/etc/os-release"; then
    note "warning: this is written for Raspberry Pi OS Bookworm; check each step on this system"
fi

step "System packages"
# PyPI has no 32-bit ARM wheel for Pillow (fpdf2's) or cffi (cryptography's, for the journal's
# signatures), and a Pi has no compiler: Debian's python3-pil, python3-cryptography and python3-cffi
# serve on every architecture, and the virtualenv below sees them.
arch=${CROUPIER_DPKG_ARCH:-$(ask dpkg --print-architecture 2>/dev/null || echo unknown)}
note "architecture: $arch"
apt_packages=(python3-venv python3-gpiozero python3-pil python3-cryptography python3-cffi fonts-dejavu-core ${pin_driver:+"$pin_driver"})
missing=()
for package in "${apt_packages[@]}"; do
    ask dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || missing+=("$package")
done
if [ ${#missing[@]} = 0 ]; then
    note "installed already: ${apt_packages[*]}"
else
    # Offline (an image prepared with no network) they must be in the image already.
    target apt-get update
    target env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi

step "The $USER_NAME user, in the dialout (serial) and gpio groups"
for group in dialout gpio; do
    has_entry group "$group" || shadow groupadd --system "$group"
done
if has_entry passwd "$USER_NAME"; then
    note "user $USER_NAME exists"
else
    shadow useradd --system --user-group --home-dir "$STATE" --no-create-home --shell /usr/sbin/nologin "$USER_NAME"
fi
for group in dialout gpio; do
    shadow usermod --append --groups "$group" "$USER_NAME"
done

step "croupier in a virtualenv that sees the system's GPIO packages and Pillow"
# nats-py comes with it: all a floor-linked table needs.
extras=floor
[ "$REVIEW_WEB" = 1 ] && extras=floor,web  # the review's server: croupier.web over textual-serve
install_croupier "$extras"

step "The journal's directory"
# The table service's StateDirectory= owns it; made now so that croupier doctor finds it.
run install -d -m 0750 "$ROOT$STATE"
target chown "$USER_NAME:$USER_NAME" "$TP$STATE"

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
if [ "$LIVE" = 1 ]; then
    run udevadm control --reload-rules
    run udevadm trigger --subsystem-match=tty
else
    note "no running system: the rule is read at the next boot"
fi

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
    if [ -n "$IMAGE" ]; then
        # raspi-config's do_serial_cons edits cmdline.txt: the same, without a running system.
        cmdline=$ROOT/boot/firmware/cmdline.txt
        [ -f "$cmdline" ] || cmdline=$ROOT/boot/cmdline.txt
        if [ -f "$cmdline" ]; then
            sed -E 's/console=(serial0|ttyAMA0|ttyS0),[0-9]+ ?//g' "$cmdline" | write_file "$cmdline" 0644
        fi
    elif command -v raspi-config >/dev/null; then
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
if [ -n "$IMAGE" ]; then
    # One image for many cards: no table's journal or key may be in it, and each card takes its own
    # table id at its first boot (hw/first-boot.sh, from croupier-table.txt on the boot partition).
    for file in journal.db table.key; do
        if [ -e "$ROOT$STATE/$file" ]; then
            echo "install.sh: $STATE/$file is in the image: every card would share it; remove it first" >&2
            exit 1
        fi
    done
    run install -m 0755 "$SRC/hw/first-boot.sh" "$ROOT/opt/croupier/first-boot.sh"
    run install -m 0644 "$SRC/systemd/croupier-first-boot.service" "$ROOT/etc/systemd/system/croupier-first-boot.service"
    for unit in "${units[@]}"; do
        run mkdir -p "$ROOT/etc/systemd/system/$unit.d"
        write_file "$ROOT/etc/systemd/system/$unit.d/first-boot.conf" 0644 <<'UNIT'
# Written by hw/install.sh --root: a card cloned from the image has its own table id first.
[Unit]
Requires=croupier-first-boot.service
After=croupier-first-boot.service
UNIT
    done
    echo "croupier-table.txt on the boot partition gives this card its table id" | write_file "$ROOT$ETC/first-boot-pending" 0644
    units+=(croupier-first-boot.service)
fi
# A floor-linked table ([floor] url set) reaches the floor's NATS servers and nothing else; the unit
# itself has no network. The drop-in is written again (or removed) at each run, from the file.
dropin=$ROOT/etc/systemd/system/croupier-table.service.d/floor.conf
floor_url=$(awk '
    /^[[:space:]]*\[/ { in_floor = ($0 ~ /^[[:space:]]*\[floor\][[:space:]]*(#.*)?$/) }
    in_floor && /^[[:space:]]*url[[:space:]]*=/ { sub(/^[^=]*=[[:space:]]*/, ""); sub(/[[:space:]]*(#.*)?$/, ""); gsub(/^["\x27]|["\x27]$/, ""); print; exit }
' "$ROOT$ETC/croupier.toml" 2>/dev/null || true)
if [ -n "$floor_url" ]; then
    allow=() unresolved=()
    IFS=, read -ra servers <<<"$floor_url"
    for server in "${servers[@]}"; do
        host=${server#*://}
        host=${host##*@}      # never a password: only the host is kept
        host=${host%%/*}
        case $host in
            \[*) host=${host%%]*}; host=${host#[} ;;
            *) host=${host%%:*} ;;
        esac
        [ -n "$host" ] || continue
        if [[ $host =~ ^[0-9.]+$ || $host == *:* ]]; then
            addresses=$host   # an address already
        elif [ -z "$IMAGE" ]; then
            addresses=$(getent ahosts "$host" 2>/dev/null | awk '{ print $1 }' | sort -u | tr '\n' ' ' || true)
        else
            addresses=
        fi
        if [ -n "$addresses" ]; then
            allow+=($addresses)
        else
            unresolved+=("$host")
        fi
    done
    if [ ${#unresolved[@]} -gt 0 ]; then
        # A name this machine cannot resolve now (or an image, whose network is the casino's):
        # the casino's private ranges, never the internet.
        note "not resolved here: ${unresolved[*]}; the table may reach the private ranges (LAN) only"
        allow+=(10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 169.254.0.0/16 fc00::/7 fe80::/10)
    fi
    # Names are looked up at the table: its name servers too.
    allow+=($(awk '$1 == "nameserver" { print $2 }' "$ROOT/etc/resolv.conf" 2>/dev/null || true))
    note "the floor link ($(sed -E 's#//[^@/,]*@#//***@#g' <<<"$floor_url")): $dropin"
    run mkdir -p "$(dirname "$dropin")"
    write_file "$dropin" 0644 <<UNIT
# Written by hw/install.sh because [floor] url is set in $ETC/croupier.toml: the table publishes
# its journal to the floor's NATS servers, and may reach those addresses only.
[Service]
PrivateNetwork=no
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
IPAddressDeny=any
IPAddressAllow=localhost $(printf '%s\n' "${allow[@]}" | sort -u | tr '\n' ' ')
UNIT
elif [ -e "$dropin" ]; then
    note "no [floor] url: the table's network drop-in goes"
    run rm -f "$dropin"
fi
[ "$LIVE" = 1 ] && run systemctl daemon-reload
# The screens take these consoles: no login prompt under them.
for tty in "${ttys[@]}"; do
    systemctl_ disable "getty@$tty.service"
done
systemctl_ enable "${units[@]}"
# An upgrade restarts what was running; a first install starts at the next boot.
[ "$LIVE" = 1 ] && run systemctl try-restart "${units[@]}"

step "Check"
if [ -n "$IMAGE" ]; then
    note "an image: croupier doctor runs on each Pi, once it has booted (hw/README.md, \"One image, many tables\")"
else
    run "$ROOT$VENV/bin/croupier" doctor --config "$ROOT$ETC/croupier.toml" || note "fix what doctor reports, then run it again"
    note "edit $ETC/croupier.toml for this table, then reboot (or: systemctl start croupier-table)"
fi
