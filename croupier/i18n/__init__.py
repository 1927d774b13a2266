"""The table's language: its texts from gettext catalogs, its numbers, money and dates from CLDR.

Catalogs are `croupier/locale/*.po`, compiled to .mo files when croupier is built (catalogs.py);
stdlib gettext reads them. English is the language of the source texts; a house adds a language
by writing `locale/LANG.po` in its house directory (its Plural-Forms header gives its plural rule).

    from croupier.i18n import _, install
    install("pt")                 # once, from the configuration's table.language
    _("No more bets")             # -> "Jogo feito, nada mais"

Texts are marked with `_()` where they are shown and with `N_()` where they are only named (a table
of labels at import time); `tests/ui/test_ui_i18n.py` finds every marked text in the code and checks
each catalog has it. Numbers go through `formats` (money, number, fixed, percent, chips, day), in
the language installed.
"""
from __future__ import annotations

import gettext
import os

from croupier.i18n.catalogs import (DOMAIN, HOUSE_CATALOGS, PACKAGED_CATALOGS, SOURCE_LANGUAGE, CatalogError,
                                    catalog_path, languages, translations)

__all__ = ["DOMAIN", "HOUSE_CATALOGS", "PACKAGED_CATALOGS", "SOURCE_LANGUAGE", "CatalogError", "N_", "_",
           "catalog_path", "install", "language", "languages", "ngettext", "pgettext", "translations"]

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


def pgettext(context: str, message: str) -> str:
    """A text whose words depend on where it stands (`msgctxt` in the catalogs)."""
    return _current.pgettext(context, message)


def N_(message: str) -> str:
    """Mark a text for translation where it is defined; `_()` translates it where it is shown."""
    return message
