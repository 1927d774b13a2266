"""The table's language: its texts from gettext catalogs, its numbers, money and dates from CLDR.

Catalogs are `croupier/locale/*.po`, compiled to .mo files when croupier is built (catalogs.py);
stdlib gettext reads them. English is the language of the source texts; a house adds a language
by writing `locale/LANG.po` in its house directory (its Plural-Forms header gives its plural rule).

    from croupier.i18n import _, install
    install("pt")                 # a command's entry point, from the configuration's table.language
    _("No more bets")             # -> "Jogo feito, nada mais"

The language is the one the running context shows (`presentation.py`): a screen or a renderer
holds its own presentation (language, time zones, currency) and shows through it; `install` sets
only a command's default.

Texts are marked with `_()` where they are shown and with `N_()` where they are only named (a table
of labels at import time); `tests/ui/test_ui_i18n.py` finds every marked text in the code and checks
each catalog has it. Numbers go through `formats` (money, number, fixed, percent, chips, day), in
the language shown.
"""
from __future__ import annotations

import os

from croupier.i18n.catalogs import (DOMAIN, HOUSE_CATALOGS, PACKAGED_CATALOGS, SOURCE_LANGUAGE, CatalogError,
                                    catalog_path, languages, translations)
from croupier.i18n.presentation import Presentation, current, present, showing

__all__ = ["DOMAIN", "HOUSE_CATALOGS", "PACKAGED_CATALOGS", "SOURCE_LANGUAGE", "CatalogError", "N_", "_",
           "Presentation", "catalog_path", "current", "install", "language", "languages", "ngettext", "pgettext",
           "present", "showing", "translations"]


def install(language: str, house: str | os.PathLike[str] | None = None) -> Presentation:
    """A command's default language from now on (a house directory's catalog first), its time zones
    and currency kept: the presentation it makes, for the command to give its screen or paper; a
    screen or renderer holding its own speaks that one."""
    from dataclasses import replace

    presentation = replace(current(), language=language, catalog=translations(language, house))
    present(presentation)
    return presentation


def language() -> str:
    return current().language


def _(message: str) -> str:
    return current().catalog.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return current().catalog.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A text whose words depend on where it stands (`msgctxt` in the catalogs)."""
    return current().catalog.pgettext(context, message)


def N_(message: str) -> str:
    """Mark a text for translation where it is defined; `_()` translates it where it is shown."""
    return message
