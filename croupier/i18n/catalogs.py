"""The catalogs: one .po file per language, compiled to a gettext .mo file with msgfmt's rules by
Babel's compiler (fuzzy entries left out, `msgctxt` kept), and read by the standard library's
gettext.

The packaged catalogs are compiled when croupier is built (setup.py's build step; `dev.py` for a
working copy); a house's `locale/LANG.po` is compiled as it is loaded. Run as
`python -m croupier.i18n.catalogs` to compile the packaged catalogs beside their sources.
"""
from __future__ import annotations

import gettext
import io
import os
import re
import sys
from datetime import datetime, timezone

DOMAIN = "croupier"
SOURCE_LANGUAGE = "en"
PACKAGED_CATALOGS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "locale")
HOUSE_CATALOGS = "locale"  # the folder of a house directory that holds its own catalogs
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
# A line msgfmt reads: a keyword and a whole quoted string, or a string continuing the one above.
_LINE = re.compile(r'(?:(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"((?:[^"\\]|\\.)*)"')


class CatalogError(ValueError):
    """A .po file that cannot be compiled: the message names the file (and the line)."""


def compile_po(text: str | bytes, source: str = "<po>") -> bytes:
    """The .mo file of a .po text, as GNU msgfmt makes it: fuzzy and untranslated entries are left
    out (a plural entry too when any of its forms is empty), contexts kept. Raises CatalogError for
    a text msgfmt would refuse."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import PoFileError, read_po

    data = text.encode("utf-8") if isinstance(text, str) else text
    _check_lines(data.decode("utf-8"), source)
    try:
        catalog = read_po(io.BytesIO(data), abort_invalid=True, charset="utf-8")
    except PoFileError as exc:
        raise CatalogError(f"{source}: {exc}") from None
    except ValueError as exc:  # e.g. a Plural-Forms header Babel cannot read
        raise CatalogError(f"{source}: {exc}") from None
    # The header's dates come from the .po, not the clock: the same source always makes the same bytes.
    catalog.creation_date = catalog.revision_date = _EPOCH
    for message in list(catalog):
        if not message.id or not isinstance(message.string, tuple):
            continue
        if not all(message.string):
            catalog.delete(message.id, message.context)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def _check_lines(text: str, source: str) -> None:
    """Refuse what msgfmt refuses and Babel's reader lets through: a line that is not a keyword and
    a whole quoted string, a string continuing nothing, a message given twice."""
    seen: set[tuple[str | None, str]] = set()
    field = context = None
    msgid: list[str] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            field = None if not line else field
            continue
        match = _LINE.fullmatch(line)
        if match is None:
            raise CatalogError(f"{source}:{number}: not a keyword and a quoted string: {line[:60]!r}")
        keyword, value = match.groups()
        if keyword is None and field is None:
            raise CatalogError(f"{source}:{number}: a string continues nothing")
        if keyword == "msgctxt":
            context = value
        elif keyword == "msgid":
            msgid = [value]
        elif keyword is None and field == "msgid":
            msgid.append(value)
        elif keyword is not None and keyword != "msgid" and field == "msgid":
            key = (context, "".join(msgid))
            if key in seen:
                raise CatalogError(f"{source}:{number}: {key[1]!r} is translated twice")
            seen.add(key)
            context = None
        field = keyword or field


def _directories(house: str | os.PathLike[str] | None) -> list[str]:
    """Where catalogs are looked for, the house's first."""
    return ([os.path.join(house, HOUSE_CATALOGS)] if house else []) + [PACKAGED_CATALOGS]


def languages(house: str | os.PathLike[str] | None = None) -> tuple[str, ...]:
    """Every language a table can speak: English, and one per `*.po` file, packaged or the house's."""
    found = {SOURCE_LANGUAGE}
    for directory in _directories(house):
        try:
            names = os.listdir(directory)
        except OSError:
            continue
        found.update(name[:-3] for name in names if name.endswith(".po") and not name.startswith("."))
    return tuple(sorted(found))


def catalog_path(language: str, house: str | os.PathLike[str] | None = None) -> str | None:
    """The .po file of a language, the house's before the packaged one; None when there is none."""
    if not language or "/" in language or os.sep in language or language.startswith("."):
        return None
    for directory in _directories(house):
        path = os.path.join(directory, f"{language}.po")
        if os.path.isfile(path):
            return path
    return None


def compiled_path(po_path: str) -> str:
    """Where the build puts the .mo file of a packaged .po file: beside it."""
    return po_path[:-3] + ".mo"


def translations(language: str, house: str | os.PathLike[str] | None = None) -> gettext.NullTranslations:
    """The catalog of `language` ("pt", "en", ...): the packaged .mo file the build compiled, or the
    house's .po compiled now; English, the source, needs none."""
    path = catalog_path(language, house)
    if path is None:
        if language == SOURCE_LANGUAGE:
            return gettext.NullTranslations()
        raise CatalogError(f"there is no {language!r} catalog (croupier/locale/{language}.po); "
                           f"use one of {', '.join(languages(house))}")
    compiled = compiled_path(path)
    if os.path.dirname(path) == PACKAGED_CATALOGS and os.path.isfile(compiled):
        with open(compiled, "rb") as handle:
            return gettext.GNUTranslations(handle)
    with open(path, "rb") as handle:
        return gettext.GNUTranslations(io.BytesIO(compile_po(handle.read(), os.path.basename(path))))


def compile_all(source: str = PACKAGED_CATALOGS, target: str | None = None) -> list[str]:
    """Compile every .po file in `source` into `target` (beside them by default); the .mo paths."""
    written = []
    for name in sorted(os.listdir(source)):
        if not name.endswith(".po"):
            continue
        with open(os.path.join(source, name), "rb") as handle:
            compiled = compile_po(handle.read(), name)
        path = os.path.join(target or source, name[:-3] + ".mo")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(compiled)
        written.append(path)
    return written


if __name__ == "__main__":
    try:
        compile_all()
    except CatalogError as error:
        sys.exit(f"croupier: {error}")
