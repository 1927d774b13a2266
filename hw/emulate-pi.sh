#!/usr/bin/env bash
# Try the install on emulated Raspberry Pi OS bookworm roots, 64-bit (arm64) and 32-bit (armhf), as a
# technician would: Debian 12 roots made with debootstrap and run under qemu-user-static. Slow (an
# hour or more per architecture): run it by hand before a release, never in CI.
#
#   sudo apt-get install debootstrap qemu-user-static binfmt-support
#   sudo hw/emulate-pi.sh [--work DIR] [--roots-only] [arm64] [armhf]
#
# For each architecture it
#   1. makes a bookworm root with debootstrap (kept in DIR/ARCH and reused by the next run);
#   2. copies this source tree into the technician's home there and runs the README's commands
#      (`python3 dev.py test tests/rules`, `dev.py croupier demo --help`) as the technician;
#   3. prepares the root as an SD image would be (`hw/install.sh --root`, from outside), then
#      upgrades it from inside as on a running Pi (`hw/install.sh`);
#   4. runs a short headless table as the croupier user: a simulated wheel, `croupier run --headless`
#      on the system configuration, then `croupier verify` and a PDF shift report.
# Each step's output is in DIR/ARCH/log; the summary (one line per step) ends the output and is
# kept in DIR/summary-ARCHES.txt. Timings under emulation mean nothing; the failures do.
set -uo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=/var/tmp/croupier-emulate
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
ROOTS_ONLY=0
ARCHES=()
while [ $# -gt 0 ]; do
    case "$1" in
        --work) WORK=$2; shift ;;
        --roots-only) ROOTS_ONLY=1 ;;
        arm64 | armhf) ARCHES+=("$1") ;;
        -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "emulate-pi.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
[ ${#ARCHES[@]} -gt 0 ] || ARCHES=(arm64 armhf)
[ "$(id -u)" = 0 ] || { echo "emulate-pi.sh: run it as root (debootstrap and chroot need it)" >&2; exit 1; }
for tool in debootstrap chroot; do
    command -v "$tool" >/dev/null || { echo "emulate-pi.sh: $tool is missing: apt-get install debootstrap qemu-user-static binfmt-support" >&2; exit 1; }
done
mkdir -p "$WORK"
SUMMARY=$WORK/summary-$(IFS=-; echo "${ARCHES[*]}").txt
: >"$SUMMARY"

say() { printf '%s\n' "$*" | tee -a "$SUMMARY"; }

# Run one step, its output to the log; one summary line with its verdict and duration.
step() {
    local arch=$1 name=$2
    shift 2
    local start=$SECONDS
    printf '\n===== %s: %s\n' "$arch" "$name" >>"$LOG"
    if "$@" >>"$LOG" 2>&1; then
        say "$(printf '%-6s %-58s ok    %5ss' "$arch" "$name" $((SECONDS - start)))"
        return 0
    fi
    say "$(printf '%-6s %-58s FAIL  %5ss  (see %s)' "$arch" "$name" $((SECONDS - start)) "$LOG")"
    tail -n 15 "$LOG" | sed 's/^/         | /' | tee -a "$SUMMARY"
    return 1
}

mounted=()
mount_system() {
    local root=$1
    for fs in proc dev dev/pts sys; do
        mountpoint -q "$root/$fs" && continue
        case $fs in
            proc) mount -t proc proc "$root/proc" ;;
            *) mount --bind "/$fs" "$root/$fs" ;;
        esac
        mounted=("$root/$fs" "${mounted[@]}")
    done
    cp -L /etc/resolv.conf "$root/etc/resolv.conf"
    # A network behind a TLS-inspecting proxy: its CA, trusted on this machine, trusted in the root.
    if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
        cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
        chroot "$root" update-ca-certificates >/dev/null
    fi
}
unmount_all() {
    local m
    for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done
    mounted=()
}
trap unmount_all EXIT

in_root() { chroot "$ROOTFS" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
as_tech() { chroot --userspec=tech:tech "$ROOTFS" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/home/tech LANG=C.UTF-8 TERM=xterm "$@"; }

make_root() {
    debootstrap --arch="$ARCH" --variant=minbase \
        --include=ca-certificates,sudo,procps,systemd,systemd-sysv,udev,python3,python3-venv,python3-pip,qpdf,poppler-utils \
        bookworm "$ROOTFS" "$MIRROR" && touch "$ROOTFS/.debootstrap-done"
}

# A kept root is made a fresh Pi again: nothing of an earlier run's install.
fresh_root() {
    rm -rf "$ROOTFS/opt/croupier" "$ROOTFS/etc/croupier" "$ROOTFS/var/lib/croupier" \
        "$ROOTFS"/etc/systemd/system/croupier-* "$ROOTFS"/etc/systemd/system/*/croupier-*
    in_root sh -c 'if id croupier >/dev/null 2>&1; then userdel croupier; fi'
}

copy_tree() {
    in_root sh -c 'id tech >/dev/null 2>&1 || useradd --create-home --uid 1000 --shell /bin/bash tech'
    rm -rf "$ROOTFS/home/tech/croupier"
    mkdir -p "$ROOTFS/home/tech/croupier"
    # The tree as a technician copies it: the working files, no virtualenv or build leftovers.
    tar -C "$SRC" --exclude=.venv --exclude=.git --exclude=build --exclude='*.egg-info' \
        --exclude=__pycache__ -cf - . | tar -C "$ROOTFS/home/tech/croupier" -xf -
    in_root chown -R tech:tech /home/tech/croupier
}

# What README tells a technician on 32-bit Raspberry Pi OS to take from Debian before dev.py, and
# what every Raspberry Pi OS has (a root made before they were in debootstrap's list lacks them).
readme_apt() {
    in_root sh -c "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q systemd systemd-sysv udev $(dev_apt_packages)"
}
dev_apt_packages() { python3 "$SRC/dev.py" --apt-packages "$ARCH"; }

dev_tests() { as_tech sh -c 'cd ~/croupier && python3 dev.py test tests/rules -q'; }
dev_demo_help() { as_tech sh -c 'cd ~/croupier && python3 dev.py croupier demo --help >/dev/null && python3 dev.py croupier payout --help >/dev/null'; }
tree_untouched() {
    # install.sh leaves no build/ in the technician's tree (dev.py's editable install has its egg-info),
    # and everything in it is still the technician's.
    ! find "$ROOTFS/home/tech/croupier" -name build -prune -print | grep .
    ! find "$ROOTFS/home/tech/croupier" ! -user 1000 -print | grep .
}

machine_line() { in_root python3 -c 'import platform, sys; print("machine", platform.machine(), "python", sys.version.split()[0])'; }

image_install() { "$SRC/hw/install.sh" --root "$ROOTFS"; }
pi_upgrade() { in_root sh -c 'cd /home/tech/croupier && hw/install.sh'; }
units_enabled() {
    test -L "$ROOTFS/etc/systemd/system/multi-user.target.wants/croupier-table.service" &&
        test -L "$ROOTFS/etc/systemd/system/getty.target.wants/getty@tty1.service" -o ! -e "$ROOTFS/etc/systemd/system/getty.target.wants/getty@tty1.service" &&
        test -x "$ROOTFS/opt/croupier/venv/bin/croupier"
}

headless_table() {
    in_root sh -c '
        set -e
        rm -f /var/lib/croupier/journal.db* /var/lib/croupier/table.key
        cd /var/lib/croupier
        runuser -u croupier -- /opt/croupier/venv/bin/croupier wheel-sim --protocol cammegh-ss2 --speed 20 --seed 7 --games 6 --link /tmp/wheel &
        sim=$!
        for _ in $(seq 60); do [ -e /tmp/wheel ] && break; sleep 1; done
        runuser -u croupier -- timeout --signal=TERM 150 /opt/croupier/venv/bin/croupier run --headless \
            --db /var/lib/croupier/journal.db --profile pt-americana --wheel cammegh-ss2:/tmp/wheel \
            --config /etc/croupier/croupier.toml || [ $? = 124 ]
        kill $sim 2>/dev/null || true
        wait $sim 2>/dev/null || true
        ls -l /var/lib/croupier
        runuser -u croupier -- /opt/croupier/venv/bin/croupier verify --db /var/lib/croupier/journal.db
        runuser -u croupier -- /opt/croupier/venv/bin/croupier report --db /var/lib/croupier/journal.db | head -n 15
        runuser -u croupier -- /opt/croupier/venv/bin/croupier review --db /var/lib/croupier/journal.db --pdf /tmp/shift.pdf
        pdftotext /tmp/shift.pdf - | head -n 12
        # Root with the system configuration: the files stay with the table user.
        /opt/croupier/venv/bin/croupier verify --db /var/lib/croupier/journal.db
        # The table files belong to the croupier user, whoever ran the commands.
        ! find /var/lib/croupier ! -user croupier -print | grep .
    '
}

for ARCH in "${ARCHES[@]}"; do
    ROOTFS=$WORK/$ARCH/root
    LOG=$WORK/$ARCH/log
    mkdir -p "$WORK/$ARCH"
    : >"$LOG"
    if [ ! -e "$ROOTFS/.debootstrap-done" ]; then
        rm -rf "$ROOTFS"
        step "$ARCH" "debootstrap bookworm ($MIRROR)" make_root || continue
    else
        say "$(printf '%-6s %-58s kept' "$ARCH" "bookworm root in $ROOTFS")"
    fi
    [ "$ROOTS_ONLY" = 1 ] && continue
    mount_system "$ROOTFS"
    say "$(printf '%-6s %s' "$ARCH" "$(machine_line)")"
    step "$ARCH" "a fresh root: no earlier croupier install" fresh_root
    step "$ARCH" "copy the source tree to /home/tech/croupier" copy_tree
    step "$ARCH" "apt packages README names for $ARCH: $(dev_apt_packages)" readme_apt
    step "$ARCH" "python3 dev.py test tests/rules" dev_tests
    step "$ARCH" "python3 dev.py croupier demo --help (and payout)" dev_demo_help
    step "$ARCH" "hw/install.sh --root (an SD image, prepared offline)" image_install
    step "$ARCH" "units enabled by links, venv in place" units_enabled
    step "$ARCH" "hw/install.sh inside the root (an upgrade on the Pi)" pi_upgrade
    step "$ARCH" "the technician's tree: no build files, nothing root-owned" tree_untouched
    step "$ARCH" "headless table: wheel-sim + run --headless, verify, PDF" headless_table
    unmount_all
done
printf '\nSummary (%s):\n' "$SUMMARY"
cat "$SUMMARY"
! grep -q FAIL "$SUMMARY"
