#!/bin/sh
# Run once by croupier-first-boot.service on a card written from an image that hw/install.sh --root
# prepared: it gives this table its own id, from croupier-table.txt on the card's boot partition
# (written there after cloning, from any computer). The table's key is not in the image: the table
# makes its own with its first journal, so no two tables ever share one.
set -eu
R=${CROUPIER_FIRST_BOOT_ROOT:-}  # the tests' scratch root
CONF=$R/etc/croupier/croupier.toml
PENDING=$R/etc/croupier/first-boot-pending
STATE=$R/var/lib/croupier

say() { echo "croupier first boot: $*" >&2; [ -z "$R" ] && [ -w /dev/tty1 ] && echo "croupier first boot: $*" >/dev/tty1 || true; }

for candidate in "$R/boot/firmware/croupier-table.txt" "$R/boot/croupier-table.txt"; do
    [ -f "$candidate" ] && src=$candidate && break
done
if [ -z "${src:-}" ]; then
    say "this card has no table id: write croupier-table.txt (id = \"T7\") on its boot partition and restart (hw/README.md, \"One image, many tables\")"
    exit 1
fi
id=$(sed -n 's/^[[:space:]]*id[[:space:]]*=[[:space:]]*"\([A-Za-z0-9._-]\{1,32\}\)"[[:space:]]*\(#.*\)\{0,1\}$/\1/p' "$src" | head -n 1)
name=$(sed -n 's/^[[:space:]]*name[[:space:]]*=[[:space:]]*"\([^"\\]\{1,60\}\)"[[:space:]]*\(#.*\)\{0,1\}$/\1/p' "$src" | head -n 1)
if [ -z "$id" ]; then
    say "$src has no valid id = \"...\" line (1-32 letters, digits, '.', '_' or '-')"
    exit 1
fi
if ls "$STATE"/journal.db "$STATE"/table.key >/dev/null 2>&1; then
    say "$STATE already holds a journal or key: this card was not written from a clean image; nothing changed"
    exit 1
fi
# Only the [table] section's id and name lines change; everything else stays as the image had it.
tmp=$(mktemp "$CONF.XXXXXX")
awk -v id="$id" -v name="$name" '
    /^[[:space:]]*\[/ { in_table = ($0 ~ /^[[:space:]]*\[table\][[:space:]]*(#.*)?$/) }
    in_table && /^[[:space:]]*id[[:space:]]*=/ { print "id = \"" id "\""; next }
    in_table && name != "" && /^[[:space:]]*name[[:space:]]*=/ { print "name = \"" name "\""; next }
    { print }
' "$CONF" >"$tmp"
chmod 0644 "$tmp"
mv -f "$tmp" "$CONF"
rm -f "$PENDING"
say "this table is $id${name:+ ($name)}"
