"""The screens' language: gettext catalogs read from the .po files in croupier/locale/.

The .po files are compiled when they are loaded, by the small parser below, so a machine needs no
msgfmt and no compiled .mo file can drift from its source. English is the language of the source
texts; Portuguese is the table's usual language; a file for Italian or Russian only has to be added
beside them (its Plural-Forms header gives its plural rule).

    from croupier.i18n import _, install
    install("pt")                 # once, from the configuration's table.language
    _("No more bets")             # -> "Jogo feito, nada mais"

Texts are marked with `_()` where they are shown and with `N_()` where they are only named (a table
of labels at import time); `tests/ui/test_i18n.py` finds every marked text in the code and checks
each catalog has it.
"""
from __future__ import annotations

import ast
import gettext
import os

DOMAIN = "croupier"
SOURCE_LANGUAGE = "en"
PACKAGED_CATALOGS = os.path.join(os.path.dirname(__file__), "locale")
HOUSE_CATALOGS = "locale"  # the folder of a house directory that holds its own catalogs


class CatalogError(ValueError):
    """A .po file that cannot be read: the message names the file and the line."""


class PoTranslations(gettext.NullTranslations):
    """A gettext catalog built straight from the text of a .po file."""

    def __init__(self, text: str, source: str = "<po>") -> None:
        super().__init__()
        self.source = source
        self.catalog: dict[str, str | tuple[str, ...]] = {}
        entries = _parse_po(text, source)
        header = entries.pop(("", None), ("",))[0]
        self.nplurals, self.plural = _plural_rule(header, source)
        for (msgid, plural), forms in entries.items():
            if plural is None:
                if forms[0]:  # an empty msgstr means "not translated yet"
                    self.catalog[msgid] = forms[0]
            elif all(forms):
                if len(forms) != self.nplurals:
                    raise CatalogError(f"{source}: {msgid!r} has {len(forms)} plural forms, "
                                       f"the header says {self.nplurals}")
                self.catalog[msgid] = tuple(forms)

    def gettext(self, message: str) -> str:
        found = self.catalog.get(message)
        return found if isinstance(found, str) else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        found = self.catalog.get(singular)
        if isinstance(found, tuple):
            return found[min(self.plural(n), len(found) - 1)]
        return singular if n == 1 else plural


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


def catalog_text(language: str, house: str | os.PathLike[str] | None = None) -> str | None:
    """The .po text of a language, None when croupier has no catalog for it."""
    path = catalog_path(language, house)
    if path is None:
        return None
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def translations(language: str, house: str | os.PathLike[str] | None = None) -> gettext.NullTranslations:
    """The catalog of `language` ("pt", "en", ...); English, the source, needs none."""
    text = catalog_text(language, house)
    if text is None:
        if language == SOURCE_LANGUAGE:
            return gettext.NullTranslations()
        raise CatalogError(f"there is no {language!r} catalog (croupier/locale/{language}.po); "
                           f"use one of {', '.join(languages(house))}")
    return PoTranslations(text, f"{language}.po")


_current: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE_LANGUAGE


def install(language: str, house: str | os.PathLike[str] | None = None) -> None:
    """Show every text from now on in `language` (a house directory's catalog first)."""
    global _current, _language
    _current, _language = translations(language, house), language


def language() -> str:
    return _language


def _(message: str) -> str:
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark a text for translation where it is defined; `_()` translates it where it is shown."""
    return message


# --- the .po format ---------------------------------------------------------------------------


def _parse_po(text: str, source: str) -> dict[tuple[str, str | None], tuple[str, ...]]:
    """(msgid, msgid_plural) -> the msgstr forms. Comments and msgctxt-free entries only: that is
    all croupier's catalogs use."""
    entries: dict[tuple[str, str | None], tuple[str, ...]] = {}
    fields: dict[str, str] = {}
    last: str | None = None
    start = 0

    def finish() -> None:
        nonlocal fields
        if not fields:
            return
        if "msgid" not in fields:
            raise CatalogError(f"{source}:{start}: an entry without msgid")
        key = (fields["msgid"], fields.get("msgid_plural"))
        if key in entries:
            raise CatalogError(f"{source}:{start}: {key[0]!r} is translated twice")
        if key[1] is None:
            if "msgstr" not in fields:
                raise CatalogError(f"{source}:{start}: {key[0]!r} has no msgstr")
            entries[key] = (fields["msgstr"],)
        else:
            forms = []
            while f"msgstr[{len(forms)}]" in fields:
                forms.append(fields[f"msgstr[{len(forms)}]"])
            if not forms:
                raise CatalogError(f"{source}:{start}: {key[0]!r} has no msgstr[0]")
            entries[key] = tuple(forms)
        fields = {}

    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line:
                finish()
                last = None
            continue
        if line.startswith('"'):
            if last is None:
                raise CatalogError(f"{source}:{line_no}: a string continues nothing")
            fields[last] += _string(line, source, line_no)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "msgid" and fields:
            finish()  # entries need not be separated by a blank line
        if keyword not in ("msgid", "msgid_plural", "msgstr") and not (
            keyword.startswith("msgstr[") and keyword.endswith("]") and keyword[7:-1].isdecimal()
        ):
            raise CatalogError(f"{source}:{line_no}: {keyword!r} is not a .po keyword croupier reads")
        if not fields:
            start = line_no
        if keyword in fields:
            raise CatalogError(f"{source}:{line_no}: {keyword} given twice in one entry")
        fields[keyword] = _string(rest.strip(), source, line_no)
        last = keyword
    finish()
    return entries


def _string(token: str, source: str, line_no: int) -> str:
    if len(token) < 2 or not (token.startswith('"') and token.endswith('"')):
        raise CatalogError(f"{source}:{line_no}: expected a quoted string, got {token!r}")
    inner = token[1:-1]
    if "\\" not in inner and '"' not in inner:
        return inner  # nothing to unescape, as in most entries: parsed at every start-up
    try:
        value = ast.literal_eval(token)  # C escapes (\n, \", \\) read as Python's
    except (SyntaxError, ValueError):
        raise CatalogError(f"{source}:{line_no}: {token!r} is not a valid quoted string") from None
    if not isinstance(value, str):
        raise CatalogError(f"{source}:{line_no}: {token!r} is not a string")
    return value


def _plural_rule(header: str, source: str):
    """nplurals and the plural function from the header's Plural-Forms line (English's by default)."""
    for line in header.splitlines():
        name, _, value = line.partition(":")
        if name.strip().lower() == "plural-forms":
            try:
                parts = dict(p.strip().split("=", 1) for p in value.split(";") if p.strip())
                return int(parts["nplurals"]), gettext.c2py(parts["plural"])
            except (KeyError, ValueError) as exc:
                raise CatalogError(f"{source}: Plural-Forms {value.strip()!r} cannot be read ({exc})") from None
    return 2, lambda n: int(n != 1)
