"""Chip counts take the plural their number needs in every language (gettext's msgid_plural, the
catalog's Plural-Forms): the timeline, the colour ledger's cash-out cell, the colours panel and the
colour menus' messages never read "1 chips"."""
from datetime import datetime, timezone
from decimal import Decimal

import pytest

from croupier.i18n import install, ngettext
from croupier.table import events as ev

T = datetime(2025, 1, 6, 14, 0, tzinfo=timezone.utc)
# (language, 1, 2 and 5 chips as the colour's giving reads them in the timeline)
GIVEN = [
    ("en", "red to seat 1 at 5 a chip, 1 chip, by Ana", "2 chips, by Ana", "5 chips, by Ana"),
    ("pt", "vermelho para seat 1 a 5 a ficha, 1 ficha, por Ana", "2 fichas, por Ana", "5 fichas, por Ana"),
    ("ru", "1 жетон, выдал(а) Ana", "2 жетона, выдал(а) Ana", "5 жетонов, выдал(а) Ana"),
    ("it", "1 gettone, da Ana", "2 gettoni, da Ana", "5 gettoni, da Ana"),
]


@pytest.mark.parametrize("language, one, two, five", GIVEN)
def test_the_timeline_words_one_chip_and_many(language, one, two, five):
    from croupier.history.timeline import describe

    install(language)
    given = [describe(ev.ColourAssigned(time=T, colour="red", player="seat 1", chip_value=Decimal(5), chips=n,
                                        by="Ana")) for n in (1, 2, 5)]
    assert one in given[0] and given[1].endswith(two) and given[2].endswith(five)
    late = describe(ev.LateChipsExchanged(time=T, colour="red", chips=1, chip_value=Decimal(5), amount=Decimal(5),
                                          by="Ana"))
    assert "1 chips" not in late and "1 late chips" not in late


@pytest.mark.parametrize("language, one, twenty_one, half", [
    ("en", "1 chip", "21 chips", "2½ chips"), ("pt", "1 ficha", "21 fichas", "2½ fichas"),
    ("ru", "1 жетон", "21 жетон", "2½ жетона"), ("it", "1 gettone", "21 gettoni", "2½ gettoni")])
def test_the_colours_panel_and_the_ledger_take_the_plural_of_their_number(language, one, twenty_one, half):
    from fractions import Fraction

    from croupier.history.ledger import ColourStatement, ledger_table
    from croupier.history.words import chips_words

    install(language)
    assert (chips_words(1), chips_words(21), chips_words(Fraction(5, 2))) == (one, twenty_one, half)
    statement = ColourStatement(colour="red", player="seat 1", chip_value=Decimal(5), since=T)
    statement.cashed_out = {"chips": 1, "amount": Decimal(5)}
    (row,) = ledger_table([statement]).rows
    assert row[5].startswith(one + " = ")


@pytest.mark.parametrize("language", ["pt", "ru", "it", "en"])
def test_the_colour_menus_messages_have_a_singular_in_every_catalog(language):
    install(language)
    for singular, plural in (("{colour} to {player}: {chips} chip of {value}",
                              "{colour} to {player}: {chips} chips of {value}"),
                             ("{chips} late chip = {amount}", "{chips} late chips = {amount}"),
                             ("{colour}: {chips} chip × {value} = {amount}",
                              "{colour}: {chips} chips × {value} = {amount}")):
        assert ngettext(singular, plural, 1) != ngettext(singular, plural, 5)


@pytest.mark.parametrize("language, one, two", [
    ("en", "(35 paid, 1 stake kept)", "(70 paid, 2 stakes kept)"),
    ("pt", "(35 pagas, 1 de apostas mantidas)", "(70 pagas, 2 de apostas mantidas)")])
def test_what_a_correction_leaves_to_recover_takes_the_plural_of_the_stakes_kept(language, one, two):
    from fractions import Fraction

    from croupier.history.payouts import amount_words

    install(language)
    assert amount_words(Fraction(35), Fraction(1), None).endswith(one)
    assert amount_words(Fraction(70), Fraction(2), None).endswith(two)
