"""A checker of udev rule lines, after udev(7) of systemd 252, for machines whose udevadm has no
`verify` (added in 253; Debian 12 and Raspberry Pi OS bookworm ship 252). It refuses what udev
itself would ignore: an unknown key, an operator the key does not take, a missing or unknown
{attribute}, an unquoted value, a bad MODE."""
from __future__ import annotations

import re

MATCH = ("==", "!=")
ASSIGN = ("=", "+=", "-=", ":=")
# key: (operators it takes, whether it needs {attribute})
KEYS = {
    "ACTION": (MATCH, False),
    "DEVPATH": (MATCH, False),
    "KERNEL": (MATCH, False),
    "KERNELS": (MATCH, False),
    "SUBSYSTEM": (MATCH, False),
    "SUBSYSTEMS": (MATCH, False),
    "DRIVER": (MATCH, False),
    "DRIVERS": (MATCH, False),
    "TAGS": (MATCH, False),
    "RESULT": (MATCH, False),
    "ATTRS": (MATCH, True),
    "CONST": (MATCH, True),
    # udev reads these three's `=` as a match
    "TEST": (MATCH + ("=",), None),
    "PROGRAM": (MATCH + ("=",), False),
    "IMPORT": (MATCH + ("=",), True),
    "NAME": (MATCH + ("=", ":="), False),
    "SYMLINK": (MATCH + ASSIGN, False),
    "TAG": (MATCH + ASSIGN, False),
    "ATTR": (MATCH + ("=", ":="), True),
    "SYSCTL": (MATCH + ("=", ":="), True),
    "ENV": (MATCH + ("=", "+=", ":="), True),
    "OWNER": (("=", ":="), False),
    "GROUP": (("=", ":="), False),
    "MODE": (("=", ":="), False),
    "SECLABEL": (("=", "+=", ":="), True),
    "RUN": (("=", "+=", "-=", ":="), None),
    "LABEL": (("=",), False),
    "GOTO": (("=",), False),
    "OPTIONS": (("=", "+=", ":="), False),
}
IMPORT_TYPES = {"program", "builtin", "file", "db", "cmdline", "parent"}
RUN_TYPES = {"program", "builtin"}
PAIR = re.compile(r'\s*([A-Z]+)(?:\{([^{}"]*)\})?\s*(==|!=|\+=|-=|:=|=)\s*"((?:[^"\\]|\\.)*)"\s*(,?)')


def rule_errors(line: str) -> list[str]:
    """What is wrong with one rule line (empty when udev would take every key of it)."""
    errors, pos, keys = [], 0, []
    while pos < len(line):
        match = PAIR.match(line, pos)
        if match is None:
            return errors + [f"cannot read a KEY==\"value\" pair at column {pos + 1}: {line[pos:pos + 30]!r}"]
        key, attribute, operator, value, comma = match.groups()
        keys.append(key)
        if key not in KEYS:
            errors.append(f"unknown key {key}")
        else:
            operators, needs_attribute = KEYS[key]
            if operator not in operators:
                errors.append(f"{key} does not take {operator}")
            if needs_attribute and not attribute:
                errors.append(f"{key} needs {{attribute}}")
            if needs_attribute is False and attribute is not None:
                errors.append(f"{key} takes no {{attribute}}")
            if key == "IMPORT" and attribute not in IMPORT_TYPES:
                errors.append(f"IMPORT{{{attribute}}} is not a type udev knows")
            if key == "RUN" and attribute is not None and attribute not in RUN_TYPES:
                errors.append(f"RUN{{{attribute}}} is not a type udev knows")
            if key == "MODE" and not re.fullmatch(r"0?[0-7]{3,4}", value):
                errors.append(f"MODE {value!r} is not an octal mode")
        pos = match.end()
        if not comma and pos < len(line):
            errors.append(f"a comma is missing at column {pos + 1}")
    if not keys:
        errors.append("an empty rule")
    return errors


def rules_file_errors(text: str) -> list[str]:
    """Every error of a rules file, each with its line number; comments and blank lines skipped,
    backslash-continued lines joined as udev joins them."""
    errors, pending, start = [], "", 0
    for number, raw in enumerate(text.splitlines(), 1):
        if not pending:
            start = number
            if not raw.strip() or raw.lstrip().startswith("#"):
                continue
        if raw.endswith("\\"):
            pending += raw[:-1]
            continue
        line, pending = pending + raw, ""
        errors += [f"line {start}: {error}" for error in rule_errors(line.strip())]
    if pending:
        errors.append(f"line {start}: the file ends inside a continued line")
    return errors
