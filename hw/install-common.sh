# Helpers for hw/install.sh and hw/install-floor.sh (sourced, never run): each step shown, a dry run
# that changes nothing, commands for a mounted image run inside it, and croupier's wheel.
# They read DRY_RUN, ROOT, IMAGE, SRC, VENV and WHEELHOUSE from the script that sources them.

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

# Where the installed system's commands see a path: inside the image from its own root, else
# under ROOT (the tests' scratch tree; empty on a Pi).
TP=$ROOT
[ -n "$IMAGE" ] && TP=

# A system command for the installed system: in the image, run inside it.
target() {
    if [ -n "$IMAGE" ]; then
        run chroot "$IMAGE" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
    else
        run "$@"
    fi
}
# The same, for a question that changes nothing (run in a dry run too).
ask() {
    if [ -n "$IMAGE" ]; then
        chroot "$IMAGE" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"
    else
        "$@"
    fi
}
# systemd and udev act now only on a running system: in an image, or a root with no systemd running
# (a chroot), the units are enabled by links and the rules are read at the next boot.
LIVE=1
if [ -n "$IMAGE" ] || [ ! -d "${CROUPIER_SYSTEMD_RUN:-/run/systemd/system}" ]; then
    LIVE=0
fi
systemctl_() {
    if [ -n "$IMAGE" ]; then run systemctl --root="$IMAGE" "$@"; else run systemctl "$@"; fi
}
# Users and groups: shadow's own --root, so an image's are changed, never this machine's.
has_entry() {
    if [ -n "$IMAGE" ]; then grep -q "^$2:" "$IMAGE/etc/$1"; else getent "$1" "$2" >/dev/null; fi
}
shadow() {
    local tool=$1
    shift
    if [ -n "$IMAGE" ]; then run "$tool" --root "$IMAGE" "$@"; else run "$tool" "$@"; fi
}

# croupier into $VENV with the extras named in $1 (comma-separated) and any other packages after it.
install_croupier() {
    local extras=$1 wheel
    shift
    if [ -x "$ROOT$VENV/bin/python" ]; then
        note "$VENV exists"
    else
        run mkdir -p "$ROOT$(dirname "$VENV")"
        target python3 -m venv --system-site-packages "$TP$VENV"
    fi
    pip_from=()
    [ -n "$WHEELHOUSE" ] && pip_from=(--no-index --find-links "$WHEELHOUSE")
    if [ -n "$IMAGE" ] && [ -n "$WHEELHOUSE" ]; then
        # The image's pip sees the wheelhouse through a copy inside it.
        wheels=$(mktemp -d "$IMAGE/tmp/croupier-wheels.XXXXXX")
        cp -a "$WHEELHOUSE"/. "$wheels"/
        pip_from=(--no-index --find-links "${wheels#"$IMAGE"}")
    fi
    # The wheel is built from a clean copy of the tree in a temporary folder: the technician's tree
    # gets no build/ or egg-info (root-owned, they would break the next `pip install .` there), and
    # nothing left over from an older build ends up installed.
    build=$(mktemp -d "${IMAGE:-${TMPDIR:-/tmp}}/${IMAGE:+tmp/}croupier-install.XXXXXX")
    cleanup() { rm -rf "$build" ${wheels:+"$wheels"}; }
    trap cleanup EXIT
    if [ "$DRY_RUN" = 1 ]; then
        printf '+ copy %s (no .git, .venv, build, dist, egg-info) to %s/src\n' "$SRC" "$build"
    else
        mkdir "$build/src"
        tar -C "$SRC" --exclude=./.git --exclude=./.venv --exclude=./build --exclude=./dist \
            --exclude='*.egg-info' --exclude=__pycache__ --exclude='*.pyc' -cf - . | tar -C "$build/src" -xf -
    fi
    pip=("$TP$VENV/bin/pip" --disable-pip-version-check)
    target "${pip[@]}" wheel --no-deps "${pip_from[@]}" --wheel-dir "${build#"$IMAGE"}/dist" "${build#"$IMAGE"}/src"
    if [ "$DRY_RUN" = 1 ]; then
        wheel=${build#"$IMAGE"}/dist/croupier-VERSION-py3-none-any.whl
    else
        wheel=$(ls "$build"/dist/croupier-*.whl 2>/dev/null | head -n 1)
        [ -n "$wheel" ] || { echo "install.sh: no croupier wheel was built" >&2; exit 1; }
        wheel=${wheel#"$IMAGE"}
    fi
    # Its dependencies and the extras asked; Debian's Pillow and cryptography stay where they serve.
    packages=("$wheel[$extras]" "$@")
    target "${pip[@]}" install --upgrade "${pip_from[@]}" "${packages[@]}"
    # Then croupier itself again from the wheel, whatever version was there: the old files go (by the
    # installed RECORD) and the new ones come, so a module the new version dropped is no longer found.
    target "${pip[@]}" install --force-reinstall --no-deps "${pip_from[@]}" "$wheel"
}
