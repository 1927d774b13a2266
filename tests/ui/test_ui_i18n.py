"""The screens' languages: every text the code marks is in each catalog, translations keep their
placeholders, catalogs compile with msgfmt's rules (a broken .po is refused with its file and line,
fuzzy entries are not used, contexts work), plural rules come from the header, and the table's
announcements come out in the table's language."""
import ast
import gc
import gettext
import io
import re
from pathlib import Path

import pytest

from croupier.i18n import CatalogError, catalog_path, current, install, languages, present
from croupier.i18n.catalogs import compile_po
from ui_kit import flat, press, screen_text

CROUPIER = Path(__file__).resolve().parents[2] / "croupier"
CATALOGS = [language for language in languages() if catalog_path(language)]  # every .po shipped
FIELD = re.compile(r"\{[^{}]*\}|\[/?[a-z ]*\]")  # format fields and Rich markup tags


def marked_texts() -> dict[tuple[str, str | None], str]:
    """(text, plural) -> where: every _(), N_() and ngettext() call with literal text in croupier."""
    found = {}
    for path in sorted(CROUPIER.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if "from croupier.i18n import" not in source:
            continue
        for node in ast.walk(ast.parse(source)):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            literal = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if node.func.id in ("_", "N_") and literal:
                found[(literal[0], None)] = f"{path.name}:{node.lineno}"
            elif node.func.id == "ngettext":
                found[(literal[0], literal[1])] = f"{path.name}:{node.lineno}"
    return {**found, **refusal_templates()}


def refusal_templates() -> dict[tuple[str, None], str]:
    """Every refusal of the core, worded through the catalogs: the English templates of the kinds of
    refusal the screens word by them, the phrases the core puts into their facts, and the limits'
    reasons and colour values' problems."""
    from croupier.rules.limits import COLOUR_VALUE_PROBLEMS, OUTCOMES, REASONS
    from croupier.table import refusal as no
    from croupier.ui import text

    found = {(text, None): "limits.py"
             for text in (*REASONS.values(), *OUTCOMES.values(), *COLOUR_VALUE_PROBLEMS.values())}
    for kind in no.kinds():
        if text.refusal.dispatch(kind) is text.refusal.dispatch(no.Refused):
            found.update({(template, None): kind.__name__ for template in kind.templates()})
    for path in sorted((CROUPIER / "table").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            found.update({(phrase, None): f"{path.name}:{node.lineno}" for phrase in _refusal_phrases(node)})
    return found


def _refusal_phrases(node) -> list[str]:
    """Phrases the core puts into a refusal's facts: what a PIN is asked for (`to=`), what is chosen
    (`what=`), and what an amount is (`amount(value, "a posted value")`, its default)."""
    if isinstance(node, ast.Call):
        literal = [k.value.value for k in node.keywords
                   if k.arg in ("to", "what") and isinstance(k.value, ast.Constant)]
        if getattr(node.func, "id", None) == "amount" and len(node.args) == 2 and isinstance(node.args[1], ast.Constant):
            literal.append(node.args[1].value)
        return literal
    if isinstance(node, ast.FunctionDef) and node.name == "amount":
        return [d.value for d in node.args.defaults if isinstance(d, ast.Constant)]
    return []


def catalog_entries(language: str) -> dict[tuple[str, str | None], tuple[str, ...]]:
    """(msgid, msgid_plural) -> the msgstr forms of a packaged catalog, as Babel reads it."""
    from babel.messages.pofile import read_po

    with open(catalog_path(language), "rb") as handle:
        catalog = read_po(handle, abort_invalid=True)
    return {(m.id, None) if isinstance(m.id, str) else (m.id[0], m.id[1]):
            (m.string,) if isinstance(m.string, str) else tuple(m.string) for m in catalog if m.id}


def test_the_code_marks_texts_and_finds_them():
    texts = marked_texts()
    assert ("No more bets", None) in texts and len(texts) > 200


@pytest.mark.parametrize("language", CATALOGS)
def test_each_catalog_lists_exactly_the_marked_texts(language):
    texts, entries = marked_texts(), catalog_entries(language)
    missing = {text: where for text, where in texts.items() if text not in entries}
    stale = [text for text in entries if text not in texts]
    assert not missing, f"{language}.po lacks: {missing}"
    assert not stale, f"{language}.po has texts the code no longer uses: {stale}"


TRANSLATED = [language for language in CATALOGS if language != "en"]
# Texts a translation may leave as they are: markup and numbers only, or a word every language shares.
SAME_EVERYWHERE = {"{bet}: {reason}; {outcome}", "{count} × 20", "Menu", "menu", "croupier", "nassa",
                   "Croupier: {name} · {relief}", "Croupier: —", "Croupier:", "{kind}, in {currency}:", "Serie", "Series",
                   "Complete", "Dozens {first} {second} {third}", "finale {digits}", "croupier {name}"}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_translation_keeps_its_placeholders_and_markup(language):
    for (text, plural), forms in catalog_entries(language).items():
        assert all(forms), f"{language}.po: untranslated: {text!r}"
        for form in forms:
            assert sorted(FIELD.findall(form)) == sorted(FIELD.findall(plural or text)), (language, text, form)


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_message_is_left_in_english(language):
    """Every marked text and every refusal template of the core has its own words in each catalog."""
    entries = catalog_entries(language)
    left = [text for (text, plural) in marked_texts()
            if entries[(text, plural)][0] == text and text not in SAME_EVERYWHERE
            and re.search("[A-Za-z]{3,}", FIELD.sub("", text))]
    assert not left, f"{language}.po leaves in English: {left}"


def test_every_kind_of_refusal_of_the_core_is_worded_by_the_screen():
    """Each class of refusal is worded from its English template (which every catalog has, as every
    marked text) or by its own wording; a class with neither would reach the screen in English."""
    from croupier.table import refusal as no
    from croupier.ui import text

    kinds = no.kinds()
    assert len(kinds) >= 100
    plain = text.refusal.dispatch(no.Refused)
    unworded = sorted(kind.__name__ for kind in kinds if text.refusal.dispatch(kind) is plain and not kind.templates())
    assert not unworded, f"refusals the screen words in English only: {unworded}"


def test_a_kind_of_refusal_without_catalog_entries_is_named_by_its_class():
    from croupier.table import refusal as no

    class Unheard(no.Kind):
        english = "a refusal no catalog has heard of"

    try:
        missing = {text: where for text, where in marked_texts().items() if text not in catalog_entries("pt")}
        assert missing == {("a refusal no catalog has heard of", None): "Unheard"}
    finally:
        del Unheard
        gc.collect()  # a class is in a cycle: gone from Kind's subclasses only once collected
    assert "Unheard" not in {kind.__name__ for kind in no.kinds()}


def test_a_refusal_naming_a_role_reads_in_the_table_s_language():
    from croupier.table.refusal import RoleNotAllowed
    from croupier.ui import text

    install("pt")
    worded = text.refusal(RoleNotAllowed(name="Ana", role="pit-boss", roles="pit boss", to="change the table sign"))
    assert worded.startswith("Ana") and "pit-boss" not in worded


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_refusal_of_the_core_reads_in_each_language(language):
    from croupier.table.refusal import ColourTaken, ReliefMidSpin
    from croupier.ui import text

    install(language)
    worded = text.refusal(ReliefMidSpin())
    assert worded and worded != str(ReliefMidSpin())
    taken = text.refusal(ColourTaken(colour="green", player="seat 2", free="red"))
    assert "green" not in taken and "seat 2" in taken and "PT-A 8" in taken


def test_the_colours_a_refusal_names_read_in_the_table_s_language():
    from croupier.table.refusal import CloseWithChipsInPlay
    from croupier.ui import text

    install("pt")
    worded = text.refusal(CloseWithChipsInPlay(colours=("blue", "red", "yellow"), rule="PT-A 15"))
    assert worded == "troque primeiro as fichas de cor ainda em jogo: azul, vermelho, amarelo (PT-A 15)"


@pytest.mark.parametrize("language", CATALOGS)
def test_the_simple_chances_on_the_sheet_are_written_alike(language):
    """Red, even, low... are rows of one list: none is capitalised where the others are not."""
    from croupier.ui import text

    install(language)
    chances = [text.position(spec) for spec in ("red", "black", "even", "odd", "low", "high")]
    assert all(chance[0].islower() for chance in chances), chances


def typed_wordings():
    """Each enum of reasons the screens and the floor view word, with its wordings by member."""
    from croupier.floor import alarms
    from croupier.floor.gate import RefusalReason
    from croupier.journal.sheet_draft import DraftReason
    from croupier.rules.bets import BetProblem
    from croupier.rules.limits import (COLOUR_VALUE_PROBLEMS, OUTCOMES, REASONS, ColourValueCode, LimitOutcome,
                                       LimitReason)
    from croupier.history import words
    from croupier.rules.spin import VoidReason
    from croupier.table.events import AlarmKind, CashOutReason
    from croupier.ui import sheet_keeping, text

    return [(BetProblem, text.BET_PROBLEMS), (ColourValueCode, COLOUR_VALUE_PROBLEMS),
            (RefusalReason, alarms.REASONS), (DraftReason, sheet_keeping.WHY),
            (LimitReason, REASONS), (LimitOutcome, OUTCOMES), (AlarmKind, words.ALARMS),
            (VoidReason, words.VOID_REASONS), (CashOutReason, words.CASH_OUTS)]


def test_every_member_of_a_typed_reason_has_its_wording():
    """A member added to an enum of reasons without its wording fails here, by type: its English is
    then checked to be in each catalog as every marked text is."""
    for reasons, wordings in typed_wordings():
        assert set(wordings) == set(reasons), (reasons.__name__, set(reasons) - set(wordings))
        assert all(isinstance(member, reasons) for member in wordings)


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_bet_a_colour_s_value_a_draft_and_a_choice_are_refused_in_each_language(language):
    from decimal import Decimal

    from croupier.floor.alarms import refusal_reason
    from croupier.floor.gate import RefusalReason
    from croupier.journal.sheet_draft import DraftReason
    from croupier.rules.bets import BetProblem
    from croupier.table import refusal as no
    from croupier.ui import text
    from croupier.ui.sheet_keeping import WHY

    install(language)
    bet = text.refusal(no.NotABet("dozen4: not offered", BetProblem.NOT_OFFERED, {"bet": "dozen1", "rule": "PT-A 5"}))
    assert "PT-A 5" in bet and "regulation" not in bet
    value = no.ColourValueNotPosted("7 is not a value (PT-A 9)", Decimal(7), "PT-A 9", allowed=(Decimal(5),))
    worded = text.refusal(value)
    assert "PT-A 9" in worded and "7" in worded and "posted" not in worded and worded != str(value)
    choice = text.refusal(no.NotAChoice(value="'dropped'", what="a reason for a golpe nulo", known="chip-fell"))
    assert "'dropped'" in choice and "chip-fell" in choice and "reason" not in choice and "voidreason" not in choice
    assert refusal_reason(RefusalReason.BAD_SIGNATURE) != "bad signature"
    from croupier.i18n import _
    assert all(_(WHY[reason]) != WHY[reason] for reason in DraftReason)


def test_a_choice_is_named_for_what_it_is_never_by_its_type():
    """A value that is none of the choices names what is chosen as the croupier says it."""
    from croupier.table import refusal as no
    from croupier.table.events import Role
    from croupier.ui import text

    with pytest.raises(no.NotAChoice) as refused:
        no.choice(Role, "owner", "a role")
    install("en")
    assert text.refusal(refused.value) == "'owner' is not a role; use one of: croupier, inspector, pit-boss"
    install("it")
    assert text.refusal(refused.value) == "'owner' non è un ruolo; usare uno di: croupier, inspector, pit-boss"


def test_the_announcements_in_portuguese():
    install("pt")
    from croupier.i18n import _

    assert _("No more bets") == "Jogo feito, nada mais"  # PT-A 20
    assert _("Void spin") == "Golpe nulo"  # PT-A 22


HEADER = 'msgid ""\nmsgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'


def compiled(text: str, source: str = "x.po") -> gettext.GNUTranslations:
    return gettext.GNUTranslations(io.BytesIO(compile_po(text, source)))


@pytest.mark.parametrize("body, problem", [
    ('msgid "a"\nmsgstr "b\n', "x.po:5: not a keyword and a quoted string"),
    ('msgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "c"\n', "x.po:8: 'a' is translated twice"),
    ('msgid "a"\n\n', "x.po: missing msgstr for msgid 'a'"),
    ('"floating"\n', "x.po:4: a string continues nothing"),
    ('msgid "a"\nmsgtxt "b"\n', "x.po:5: not a keyword and a quoted string"),
])
def test_a_broken_catalog_is_refused_naming_its_line(body, problem):
    with pytest.raises(CatalogError, match=re.escape(problem)):
        compile_po(HEADER + body, "x.po")


def test_a_fuzzy_entry_is_not_used_as_msgfmt_leaves_it_out():
    # A translator's guess marked fuzzy ("Hagan juego" for "No more bets") never reaches the table.
    catalog = compiled(HEADER + '#, fuzzy\nmsgid "No more bets"\nmsgstr "Hagan juego"\n\n'
                                'msgid "Void spin"\nmsgstr "Golpe nulo"\n')
    assert catalog.gettext("No more bets") == "No more bets"
    assert catalog.gettext("Void spin") == "Golpe nulo"


def test_a_context_tells_one_word_in_two_places_apart():
    catalog = compiled(HEADER + 'msgctxt "bet"\nmsgid "Line"\nmsgstr "Sestina"\n\n'
                                'msgid "Line"\nmsgstr "Riga"\n')
    assert (catalog.pgettext("bet", "Line"), catalog.gettext("Line")) == ("Sestina", "Riga")


def test_plural_forms_follow_the_catalogs_header():
    # Russian: one form for 1, 21, 31...; another for 2-4, 22-24...; a third for 0, 5-20, 25...
    russian = ('msgid ""\nmsgstr "Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : '
               'n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n'
               'msgid "{n} chip"\nmsgid_plural "{n} chips"\nmsgstr[0] "{n} фишка"\nmsgstr[1] "{n} фишки"\n'
               'msgstr[2] "{n} фишек"\n')
    catalog = compiled(russian, "ru.po")
    forms = {n: catalog.ngettext("{n} chip", "{n} chips", n) for n in (1, 3, 5, 11, 21, 22, 25)}
    assert forms == {1: "{n} фишка", 3: "{n} фишки", 5: "{n} фишек", 11: "{n} фишек", 21: "{n} фишка",
                     22: "{n} фишки", 25: "{n} фишек"}
    assert catalog.gettext("not in it") == "not in it"


def test_a_plural_with_the_wrong_number_of_forms_is_refused():
    body = 'msgid "a"\nmsgid_plural "as"\nmsgstr[0] "x"\nmsgstr[1] "y"\nmsgstr[2] "z"\n'
    with pytest.raises(CatalogError, match="x.po: msg has more translations than num_plurals"):
        compile_po(HEADER + body, "x.po")


@pytest.mark.parametrize("language", CATALOGS)
def test_each_packaged_catalog_is_compiled_from_its_source(language):
    """The .mo the build put beside each .po is that .po compiled, so the table reads what the
    translators wrote."""
    from croupier.i18n.catalogs import compiled_path

    source = catalog_path(language)
    with open(source, "rb") as handle:
        assert Path(compiled_path(source)).read_bytes() == compile_po(handle.read(), f"{language}.po")


def test_a_language_without_a_catalog_is_named():
    with pytest.raises(CatalogError, match="there is no 'xx' catalog .*; use one of en, "):
        install("xx")


@pytest.mark.parametrize("language, bets, no_more", [
    ("ru", "Делайте ваши ставки", "Ставок больше нет"),  # RU 4.8
    ("it", "Fate il vostro gioco", "Rien ne va plus"),
])
async def test_the_table_screen_in_russian_and_italian(table_app, session, language, bets, no_more):
    install(language)
    async with table_app.run_test(size=(80, 24)) as pilot:
        assert bets in screen_text(table_app)
        await press(pilot, "enter", "enter")  # launch, then no more bets
        assert no_more in screen_text(table_app)
        await press(pilot, "c")  # back out of anything open
        text = flat(screen_text(table_app))
        assert "Place your bets" not in text and "spin" not in text.split()


async def test_the_table_screen_speaks_the_tables_language(table_app, session):
    install("pt")
    async with table_app.run_test(size=(80, 24)) as pilot:
        assert "Façam as vossas apostas" in screen_text(table_app)
        await press(pilot, "enter", "enter")  # launch, then no more bets
        assert "Jogo feito, nada mais" in screen_text(table_app)
        await press(pilot, "a", "1")
        text = flat(screen_text(table_app))
        assert "Golpe nulo" in text and "à espera do próximo lançamento" in text


async def test_notices_and_alarms_are_worded_in_the_tables_language(table_app, session, clock):
    """What falls due and what is late, from the core's facts, never its English."""
    install("pt")
    async with table_app.run_test(size=(80, 24)) as pilot:
        clock.advance(minutes=58)
        table_app.table_screen.show()
        await pilot.pause()
        text = flat(screen_text(table_app))
        assert "Render o croupier Ana dentro de 2 min (PT-A 33)" in text  # PT-A 33: at most an hour
        assert "Troca de bola dentro de 2 min: anunciar e pôr a outra bola em jogo (PT-A 17)" in text
        clock.advance(minutes=3)
        session.tick()
        await pilot.pause()
        text = flat(screen_text(table_app))
        assert "Ana está como croupier há mais de 60 min (PT-A 33)" in text
        assert "A bola A está em jogo há mais de 60 min: trocar e anunciar (PT-A 17)" in text
        assert "has been" not in text and "relieve" not in text.lower()


async def test_the_display_boards_title_is_whole_on_the_english_screen(session, config):
    from croupier.ui.app import TableApp

    app = TableApp(session, config, wheel=False, show_board=True)
    async with app.run_test(size=(128, 37)):
        assert "Display board" in screen_text(app)


def test_half_a_chip_reads_as_a_half_not_zero_and_a_half():
    from fractions import Fraction

    from croupier.ui import text

    assert (text.chips(Fraction(1, 2)), text.chips(Fraction(5, 2)), text.chips(3)) == ("½", "2½", "3")


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_colour_value_the_rules_forbid_is_refused_in_each_language(language, tmp_path):
    # The rules' reasons for a colour's value (RU 4.7's list, PT-B 9's multiples, the plein maximum)
    # read in the table's language, amounts with the currency, not in the rules' English.
    from croupier.session import TableSession
    from croupier.table.clock import FakeClock
    from croupier.table.refusal import ColourValueNotOneOf, Refused
    from croupier.ui import text
    from ui_kit import BALLS, COLOURS, register_staff

    present(current().in_currency("EUR"))
    install(language)
    with TableSession.open(tmp_path / "journal.db", FakeClock()) as session:
        register_staff(session)
        session.open_table(profile="ru-american", minimum=5, colours=COLOURS, balls=BALLS, croupier="Ana",
                           pin="1111", by="Marta")
        with pytest.raises(Refused) as refused:
            session.assign_colour(colour="red", player="seat 1", chip_value=20, chips=10, by="Ana")
    worded = text.refusal(refused.value)
    assert isinstance(refused.value, ColourValueNotOneOf) and "one of" not in worded and "RU 4.7" in worded
    assert "25.00 EUR" in worded.replace("25,00", "25.00") and "20" in worded


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_bet_the_regulation_does_not_offer_is_refused_in_each_language(language, tmp_path):
    # The SRIJ French table offers no announced bets: voisins du zéro are refused in the table's
    # language, under the bet's own name there, not in the rules' English.
    from decimal import Decimal

    from croupier.session import TableSession
    from croupier.table.clock import FakeClock
    from croupier.table.events import Stake
    from croupier.table.refusal import NotABet, Refused
    from croupier.ui import text
    from ui_kit import BALLS, COLOURS, register_staff

    install(language)
    with TableSession.open(tmp_path / "journal.db", FakeClock()) as session:
        register_staff(session)
        session.open_table(profile="pt-srij-french", minimum=5, colours=COLOURS, balls=BALLS, croupier="Ana",
                           pin="1111",
                           by="Marta")
        session.assign_colour(colour="red", player="seat 1", chip_value=Decimal(5), chips=10, by="Ana")
        with pytest.raises(Refused) as refused:
            session.place_bets(colour="red", stakes=(Stake(bet="voisins", chips=1),))
    worded = text.refusal(refused.value)
    assert isinstance(refused.value, NotABet) and refused.value.reason == "not-offered"
    assert worded.startswith(text.position("voisins") + ": ")
    assert "does not offer" not in worded and "voisins bets" not in worded


@pytest.mark.parametrize("language, word", [("ru", "максимум"), ("it", "massimo"), ("pt", "máximo")])
def test_a_bet_the_limits_cut_down_is_noted_in_the_tables_language(language, word, tmp_path):
    # RU 4.8: 40 chips on a plein play to the maximum and 10 go back; the note the croupier reads, the
    # review and the papers word it from the recorded facts, never the core's English.
    from croupier.history.words import limit_cut_words
    from croupier.session import TableSession
    from croupier.table.clock import FakeClock
    from croupier.table.events import Stake, decode, encode
    from croupier.ui import text
    from ui_kit import BALLS, COLOURS, register_staff

    with TableSession.open(tmp_path / "journal.db", FakeClock()) as session:
        register_staff(session)
        session.open_table(profile="ru-american", minimum=5, colours=COLOURS, balls=BALLS, croupier="Ana",
                           pin="1111", by="Marta")
        session.assign_colour(colour="red", player="seat 1", chip_value=5, chips=100, by="Ana")
        (placed,) = session.place_bets(colour="red", stakes=(Stake(bet="17", chips=40),))
    assert "10 chips go back" in placed.notes[0] and decode(encode(placed)) == placed
    install(language)
    for worded in (text.limit_cut(placed.cuts[0]), limit_cut_words(placed.cuts[0], "RUB")):
        assert word in worded.lower() and "RU 4.8" in worded and "10" in worded, worded
        assert not {"maximum", "chips", "back", "plein"} & set(re.findall(r"[a-z]+", worded)), worded


@pytest.mark.parametrize("language, amount, share, rate", [
    ("en", "4,380.00 RUB", "49%", "69.0"),
    ("pt", "4\u00a0380,00 RUB", "49%", "69,0"),
    ("ru", "4\u00a0380,00 RUB", "49\u00a0%", "69,0"),
    ("it", "4.380,00 RUB", "49%", "69,0"),
])
def test_numbers_are_written_as_each_language_writes_them(language, amount, share, rate):
    # Not by hand with English separators: CLDR's, through Babel.
    from decimal import Decimal

    from croupier.i18n import formats
    from croupier.ui import text

    install(language)
    assert text.money(Decimal(4380), "RUB") == amount
    assert (formats.percent(0.486), formats.fixed(69.04, 1)) == (share, rate)


@pytest.mark.parametrize("language, one, five", [("en", "1 chip", "5 chips"), ("ru", "1 жетон", "5 жетонов"),
                                                 ("pt", "1 ficha", "5 fichas")])
def test_a_count_of_chips_takes_the_plural_its_number_needs(language, one, five):
    from croupier.history.words import chips_words

    install(language)
    assert (chips_words(1), chips_words(5)) == (one, five)


# One word per thing in each language: the house's terms, and the variants a translation must not use.
TERMS = {
    "pt": {"pit boss": ("chefe de banca", r"chefe de mesa"), "wheel": ("cilindro", r"\broda\b"),
           "chip": ("ficha", r"\bjetons?\b")},
    "it": {"wheel": ("cilindro", r"\bruot[ae]\b"), "chip": ("gettone", r"\bfiches?\b")},
    "ru": {"wheel": ("колес", r"цилиндр|рулетк"), "chip": ("жетон", r"фишк")},
}


@pytest.mark.parametrize("language", sorted(TERMS))
def test_each_catalog_calls_one_thing_by_one_word(language):
    translated = " ".join(form for forms in catalog_entries(language).values() for form in forms).lower()
    for thing, (word, variants) in TERMS[language].items():
        assert word in translated, (language, thing)
        found = sorted(set(re.findall(variants, translated)))
        assert not found, f"{language}.po calls the {thing} {word!r} and also {found}"


def test_russian_names_a_position_where_its_case_needs_no_preposition():
    # "на 2-я дюжина" is wrong Russian: a position's name is nominative, so it follows a colon or "ставка".
    wrong = [form for forms in catalog_entries("ru").values() for form in forms
             if re.search(r"на \{(position|positions|bet)\}", form)]
    assert not wrong, wrong


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_corrections_columns_have_three_different_headings(language):
    # Italian once read "ora | era | ora": the time, the number it was and the number it is now.
    entries = catalog_entries(language)
    headings = [entries[(text, None)][0] for text in ("time", "was", "now")]
    assert len(set(headings)) == 3, headings


@pytest.mark.parametrize("profile, cited, foreign", [("ru-american", None, ("PT-A", "SRIJ")),
                                                     ("pt-americana", "PT-A 21", ("SRIJ", "RU"))])
def test_a_table_cites_only_its_own_regulations_rules(profile, cited, foreign, tmp_path):
    # An RU table's direction alarm and no-more-bets refusal once cited PT-A 21, SRIJ 17 and PT-A 20.
    from croupier.rules.spin import Direction
    from croupier.session import TableSession
    from croupier.table.clock import FakeClock
    from croupier.table.events import Stake
    from croupier.table.refusal import Refused
    from croupier.ui import text
    from ui_kit import BALLS, COLOURS, register_staff

    install("ru")
    with TableSession.open(tmp_path / "journal.db", FakeClock()) as session:
        register_staff(session)
        session.open_table(profile=profile, minimum=5, colours=COLOURS, balls=BALLS, croupier="Ana",
                           pin="1111", by="Marta")
        session.assign_colour(colour="red", player="seat 1", chip_value=5, chips=100, by="Ana")
        session.place_bets(colour="red", stakes=(Stake(bet="dozen1", chips=1),))
        session.launch(direction=Direction.CLOCKWISE, bets_on_layout=True)
        session.close_bets()
        with pytest.raises(Refused) as refused:
            session.place_bets(colour="red", stakes=(Stake(bet="red", chips=1),))
        session.enter_result(number=17, by="Ana")
        session.confirm_result(by="Ana")
        session.payouts_done(by="Ana")
        session.place_bets(colour="red", stakes=(Stake(bet="dozen1", chips=1),))
        session.launch(direction=Direction.CLOCKWISE, bets_on_layout=True)
        (alarm,) = session.state.alarms.values()
    shown = text.refusal(refused.value) + " " + text.alarm_detail(alarm) + " " + alarm.detail
    assert not [rule for rule in foreign if rule in shown], shown
    assert cited is None or cited in shown



def test_russian_names_a_colour_and_a_pin_without_a_broken_case():
    # "Жетоны цвета белый", "цвету синий платится" are wrong Russian (a colour's name is nominative):
    # it follows a colon; "PIN: Croupier 2:" has a colon too many.
    wrong = [form for forms in catalog_entries("ru").values() for form in forms
             if re.search(r"цвет[ау] \{colour\}|: \{name\}:", form)]
    assert not wrong, wrong


def test_russian_tells_a_relief_from_a_shift():
    # "Смена" was the menu's relief, the report's count of reliefs and the shift of "Отчёт за смену":
    # a relief always names whose (дилера, персонала, the role) or asks whom.
    entries = catalog_entries("ru")
    wrong = {text: forms[0] for (text, _plural), forms in entries.items()
             if re.search(r"\brelie(f|fs|ve|ved)\b", FIELD.sub("", text), re.I)
             and not re.search(r"дилер|персонал|пит-босс|\{role\}|Кого", forms[0])}
    assert not wrong, wrong


def test_russian_puts_no_name_after_dlya():
    # "Новый PIN для Pit boss", "для место 3": "для" wants the genitive, which a name, a seat or a
    # colour typed at the table does not take; they stand in brackets or after a colon.
    wrong = [form for forms in catalog_entries("ru").values() for form in forms
             if re.search(r"для \{(name|player|colour|colours|by)\}|для$", form)]  # "PIN для" over a list of names
    assert not wrong, wrong


def test_italian_asks_whom_a_relief_is_for_as_a_question():
    # "Cambio di" over the choices "croupier", "ispettore" read as a sentence cut short.
    assert catalog_entries("it")[("Relief of", None)][0].endswith("?")


async def test_an_ru_tables_menu_cites_no_other_regulations_rule(config, tmp_path):
    # The menu of an RU table offered "Восстановить выигравшие ставки (PT-A 31)".
    from croupier.session import TableSession
    from croupier.table.clock import FakeClock
    from croupier.ui.app import TableApp
    from ui_kit import BALLS, COLOURS, register_staff

    install("ru")
    with TableSession.open(tmp_path / "journal.db", FakeClock()) as session:
        register_staff(session)
        session.open_table(profile="ru-american", minimum=10, colours=COLOURS, balls=BALLS, croupier="Ana",
                           pin="1111", by="Marta")
        app = TableApp(session, config, wheel=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await press(pilot, "d")
            shown = screen_text(app)
    assert "Восстановить выигравшие ставки" in shown
    assert not re.findall(r"PT-[AB]|SRIJ", shown), shown


def test_italian_puts_no_bare_a_before_a_colour_or_a_player():
    # "a arancione" wants "ad", "a posto 4" wants "al": the colour and the player stand after a colon.
    wrong = [form for forms in catalog_entries("it").values() for form in forms
             if re.search(r"\ba \{(colour|player)\}", form)]
    assert not wrong, wrong


@pytest.mark.parametrize("language", CATALOGS)
async def test_no_result_yet_fits_on_one_line_of_the_winning_box(table_app, language):
    install(language)
    async with table_app.run_test(size=(80, 24)):
        from croupier.i18n import _

        assert _("no result yet") in screen_text(table_app)  # whole on one line of the screen
