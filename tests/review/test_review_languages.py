"""The review in the table's language: the pit boss walks the tabs of a Portuguese and a Russian
table and reads no English from the review's own texts; the PDF shift report prints in Russian;
the CSV headers follow the language while the values stay as recorded; a language without a
catalog is refused. What the table recorded (names, reasons, event kinds) is never translated."""
import csv
import re

import pytest
from textual.widgets import DataTable, Static, Tab

from croupier.commands.review import main
from croupier.i18n import install, language
from croupier.journal.store import Journal
from croupier.review.app import ReviewApp
from croupier.review.shifts import open_read_only
from croupier.review.tables_pane import TablesPane

from pdf_reading import needs_pdf_tools, pdf_text, qpdf_check


@pytest.fixture(autouse=True)
def english():
    """Each test starts in English and leaves the language as it found it."""
    install("en")
    yield
    install("en")


# The review's own words on its main tabs, in English: none may be left on a translated screen.
ENGLISH_ON_SCREEN = [
    "Timeline", "Procedures", "Croupiers", "Statistics", "Filter", "Jump to spin", "Go to date/shift",
    "Earlier shift", "Later shift", "Quit", "(read-only)", "head: event", "times in", "amounts in",
    "hash chain intact", "checked", "of 38 events", "filter:", "Enter applies, empty shows all",
    "spin number, then Enter", "Pick a spin in the timeline", "to 22:00",
]
ENGLISH_TITLES = ["Voids (golpe nulo)", "Corrections", "Alarms", "Balls", "Reliefs",
                  "Colour ledger and statements (PT-A 9)", "The table's result per shift", "Croupiers"]
ENGLISH_COLUMNS = {
    "time", "ball", "event", "spin", "reason", "source", "by", "ball back in", "was", "now", "why", "raised",
    "alarm", "kind", "subject", "detail", "acknowledged", "cleared", "note", "change", "balls", "role",
    "outgoing", "incoming", "relief", "colour", "player", "chip value", "since", "bought", "cashed out",
    "late chips", "result", "staked", "paid", "collected", "returned", "opened", "sold", "payouts recorded",
    "the table", "at the wheel", "stints", "longest stint", "spins", "spins/hour", "voids", "corrections",
    "direction repeats", "late reliefs", "paid chips", "paid money",
}
ENGLISH_CELLS = {"OVERDUE", "in time", "swap", "on time", "late", "in play", "still in play", "table", "none"}

TABS = {
    "en": ["1 Timeline", "2 Spin", "3 Procedures", "4 Colours", "5 Croupiers", "6 Statistics"],
    "pt": ["1 Cronologia", "2 Jogada", "3 Procedimentos", "4 Cores", "5 Pagadores", "6 Estatísticas"],
    "ru": ["1 Хронология", "2 Спин", "3 Процедуры", "4 Цвета", "5 Дилеры", "6 Статистика"],
}
TIMELINE_COLUMNS = {
    "en": ["#", "time", "croupier", "ball", "event"],
    "pt": ["#", "hora", "croupier", "bola", "evento"],
    "ru": ["#", "время", "дилер", "шарик", "событие"],
}
# What the pit boss reads in the table's language, one line per tab or table.
READ = {
    "pt": ["só leitura", "turno 1: 16/09/2025", "montantes em EUR", "cadeia de hashes intacta: eventos 1-38 verificados",
           "38 de 38 eventos", "Ir para a jogada", "Turno anterior", "Escolha uma jogada na cronologia",
           "Golpes nulos (1)", "Rendições (2)", "Pagadores (2)", "Resultado da mesa por turno"],
    "ru": ["только чтение", "смена 1: 16 сент.", "суммы в EUR", "цепочка хешей цела: проверены события 1-38",
           "38 из 38 событий", "Перейти к спину", "Предыдущая смена", "Выберите спин в хронологии",
           "Недействительные спины (1)", "Смены персонала (2)", "Дилеры (2)", "Результат стола за смену"],
}


def screen_text(app) -> str:
    return "\n".join("".join(segment.text for segment in strip) for strip in app.screen._compositor.render_strips())


async def walk_the_tabs(app, pilot) -> tuple[str, list[str], list[str], list[str]]:
    """Every tab shown in turn: (the screens' text, the tables' titles, their columns, their cells)."""
    screens = []
    for key in "123456":
        await pilot.press(key)
        await pilot.pause()
        screens.append(screen_text(app))
        await pilot.press("escape")  # out of the Spin tab's number box, so the next digit switches tabs
        await pilot.pause()
    titles = [str(title.render()) for pane in app.query(TablesPane) for title in pane.query(Static)
              if not isinstance(title, DataTable)]
    tables = list(app.query(DataTable))
    columns = [str(column.label) for table in tables for column in table.columns.values()]
    cells = [str(cell) for table in tables if table.id != "timeline-table"
             for row in range(table.row_count) for cell in table.get_row_at(row)]
    return "\n".join(screens), titles, columns, cells


def english_left(screens: str, titles: list[str], columns: list[str], cells: list[str]) -> list[str]:
    left = [text for text in ENGLISH_ON_SCREEN if re.search(rf"(?<!\w){re.escape(text)}(?!\w)", screens)]
    left += [title for title in titles if any(title.startswith(english) for english in ENGLISH_TITLES)]
    left += [column for column in columns if column in ENGLISH_COLUMNS]
    return left + [cell for cell in cells if cell in ENGLISH_CELLS]


async def test_in_english_the_review_shows_the_texts_the_translations_replace(shift_journal):
    # The check below is worth something only if these words are on the English screens.
    app = ReviewApp(open_read_only(shift_journal), "EUR")
    async with app.run_test(size=(240, 50)) as pilot:
        screens, titles, columns, cells = await walk_the_tabs(app, pilot)
        assert [str(tab.label) for tab in app.query(Tab)] == TABS["en"]
        shown = english_left(screens, titles, columns, cells)
    assert set(ENGLISH_ON_SCREEN) <= set(shown)
    assert {"OVERDUE", "in time", "swap"} <= set(shown) and "ball back in" in shown


@pytest.mark.parametrize("table_language", ["pt", "ru"])
async def test_the_review_speaks_the_tables_language_on_every_tab(shift_journal, table_language):
    install(table_language)
    app = ReviewApp(open_read_only(shift_journal), "EUR")
    async with app.run_test(size=(240, 50)) as pilot:
        screens, titles, columns, cells = await walk_the_tabs(app, pilot)
        assert [str(tab.label) for tab in app.query(Tab)] == TABS[table_language]
        timeline = app.query_one("#timeline-table", DataTable)
        assert [str(column.label) for column in timeline.columns.values()] == TIMELINE_COLUMNS[table_language]
        everything = " ".join(" ".join([screens, *titles]).split())
        for text in READ[table_language]:
            assert text in everything, text
        assert english_left(screens, titles, columns, cells) == []
        # What was recorded stays as recorded: the names, the reason a relief was late.
        assert "Rui" in cells and "no relief available" in cells


@pytest.mark.parametrize("table_language, spin, lines", [
    ("pt", "1", ["jogada 1", "resultado: 17 preto", "origem: cilindro", "resultado registado 16/09/2025, 21:03:30",
                 "leitura do sensor: 17",
                 "lançamento 21:03:00: bola B1, croupier Ana, sentido dos ponteiros do relógio",
                 "apostas de vermelho: plein 17 x2", "apostas de azul: vermelho x5",
                 "vermelho: apostado 2, pago 70 = 350,00 EUR, devolvido 2, perdido 0",
                 "azul: apostado 5, pago 0 = 0,00 EUR, devolvido 0, perdido 5"]),
    ("ru", "2", ["спин 2", "результат: 32 красный", "источник: клавиатура, подтвердил(а) Ana",
                 "результат записан 16 сент. 2025\u202fг., 21:08:36", "набрано на клавиатуре: 32",
                 "набрано 21:08:30: 32, набрал(а) Ana", "подтверждено 21:08:36, подтвердил(а) Ana",
                 "запуск 21:07:00: шарик B1, дилер Ana, против часовой стрелки",
                 "запуск 21:08:00: шарик B1, дилер Ana, против часовой стрелки",
                 "недействительный спин 21:07:18: В колесо упал жетон (клавиатура), объявил(а) Ana, "
                 "шарик возвращён в ячейку 17",
                 "красный, ставки: plein 17 x1",
                 "красный: поставлено 1, выплачено 0 = 0,00 EUR, возвращено 0, проиграно 1"]),
])
async def test_the_spin_detail_for_a_dispute_in_the_tables_language(shift_journal, table_zone, table_language,
                                                                   spin, lines):
    # The words are the table's, the recorded codes (colours, sources, reasons) worded in its language.
    install(table_language)
    app = ReviewApp(open_read_only(shift_journal), "EUR")
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("j", spin, "enter")
        await pilot.pause()
        assert str(app.query_one("#spin-detail", Static).render()).splitlines() == lines


async def test_a_filter_it_cannot_read_is_refused_in_the_tables_language(shift_journal):
    install("ru")
    app = ReviewApp(open_read_only(shift_journal))
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("slash", *"kind:spin-exploded", "enter")
        await pilot.pause()
        status = str(app.query_one("#timeline-status", Static).render())
        assert "'spin-exploded' - не тип события; известные:" in status
        await pilot.press("escape", "g", *"смена 9", "enter")  # a shift by the word of the table's language
        await pilot.pause()
        assert any("есть смены с 1 по 1" in notice.message for notice in app._notifications)


@needs_pdf_tools
def test_the_pdf_shift_report_in_russian(shift_journal, tmp_path):
    target = tmp_path / "smena.pdf"
    settings = tmp_path / "croupier.toml"
    settings.write_text('[table]\ncurrency = "RUB"\nlanguage = "pt"\n')  # --language overrides the table's
    assert main(["--db", str(shift_journal), "--pdf", str(target), "--config", str(settings),
                 "--language", "ru", "--casino", "Казино Сочи"]) == 0
    qpdf_check(target)
    text = pdf_text(target)
    with Journal.open(shift_journal, read_only=True) as journal:
        digest = journal.head[1]
    for heading in ["CROUPIER - ОТЧЁТ ЗА СМЕНУ", "Казино: Казино Сочи", "Валюта: RUB",
                    f"Хеш последнего события: {digest}", "Засчитанные спины (4)", "Недействительные спины (1)",
                    "Исправления (1)", "Тревоги (1)", "Шарики (1)", "Смены персонала (2)", "Дилеры (2)",
                    "К возврату после исправленных результатов", "Учёт цветов и выписки (PT-A 9)", "СТАТИСТИКА ИСПРАВНОСТИ КОЛЕСА",
                    "Засчитанные спины 4, недействительные спины 1, исправления 1, тревоги 1, смены шарика 1, "
                    "смены персонала 2", "Пит-босс: имя", "Инспектор: имя", "подпись", "страница 1 из",
                    "всё время в этом отчёте указано по поясу"]:
        assert heading in text, heading
    # amounts with their currency, written as Russian writes them: 1 000,00 RUB
    assert re.search(r"Цвета: куплено \d[\d\u00a0 ]*,\d\d RUB, обменяно \d[\d\u00a0 ]*,\d\d RUB", text)
    for english in ["CROUPIER SHIFT REPORT", "Counted spins", "WHEEL-INTEGRITY STATISTICS", "Pit boss:",
                    "Inspector:", "Head hash:", "Currency:", "Time zone:", "page 1 of", "To recover after"]:
        assert english not in text, english
    assert "Rui" in text and "Marta" in text  # names as recorded


@needs_pdf_tools
def test_the_table_s_configured_language_is_the_pdf_s_and_the_review_s(shift_journal, tmp_path, monkeypatch):
    settings = tmp_path / "croupier.toml"
    settings.write_text('[table]\ncurrency = "EUR"\nlanguage = "pt"\n')
    target = tmp_path / "turno.pdf"
    assert main(["--db", str(shift_journal), "--pdf", str(target), "--config", str(settings)]) == 0
    text = pdf_text(target)
    assert "CROUPIER - RELATÓRIO DO TURNO" in text and "Moeda: EUR" in text and "Jogadas contadas (4)" in text
    opened = {}
    monkeypatch.setattr(ReviewApp, "run", lambda app: opened.update(language=language(), title=app.title))
    assert main(["--db", str(shift_journal), "--config", str(settings)]) == 0
    assert opened == {"language": "pt", "title": "croupier - revisão"}
    assert main(["--db", str(shift_journal), "--config", str(settings), "--language", "it"]) == 0
    assert opened == {"language": "it", "title": "croupier - revisione"}


def test_the_csv_headers_in_italian_and_the_values_as_recorded(shift_journal, tmp_path, table_zone):
    spins, events = tmp_path / "colpi.csv", tmp_path / "eventi.csv"
    assert main(["--db", str(shift_journal), "--csv-spins", str(spins), "--csv-events", str(events),
                 "--language", "it"]) == 0
    rows = list(csv.reader(spins.open(encoding="utf-8-sig")))
    assert rows[0] == ["colpo", "orario", "numero", "colore", "numero registrato", "origine", "confermato da",
                       "corretto da", "motivo della correzione", "pallina", "croupier", "senso",
                       "partita del cilindro", "evento"]
    assert rows[1][:6] == ["1", "2025-09-16T21:03:30+01:00", "17", "black", "17", "sensor"]  # not "nero"
    assert rows[3][6:10] == ["", "Marta", "sensor misread; ball seen in 24", "B1"]
    rows = list(csv.reader(events.open(encoding="utf-8-sig")))
    assert rows[0] == ["evento", "orario", "tipo", "descrizione", "codice hash", "registrazione"]
    assert "spin-voided" in [row[2] for row in rows[1:]]  # the kinds as recorded


def test_machine_headers_keep_the_column_names_in_any_language(shift_journal, tmp_path):
    spins, events = tmp_path / "spins.csv", tmp_path / "events.csv"
    assert main(["--db", str(shift_journal), "--csv-spins", str(spins), "--csv-events", str(events),
                 "--language", "ru", "--machine-headers"]) == 0
    assert next(csv.reader(spins.open(encoding="utf-8-sig"))) == [
        "spin", "time", "number", "colour", "recorded_number", "source", "confirmed_by", "corrected_by",
        "correction_reason", "ball", "croupier", "direction", "wheel_game", "event"]
    assert next(csv.reader(events.open(encoding="utf-8-sig"))) == [
        "event", "time", "kind", "description", "hash", "record"]


def test_a_language_without_a_catalog_is_refused_and_nothing_is_written(shift_journal, tmp_path, capsys):
    target = tmp_path / "spins.csv"
    assert main(["--db", str(shift_journal), "--csv-spins", str(target), "--language", "xx"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("croupier review: --language 'xx': there is no 'xx' catalog")
    assert "use one of en, it, pt, ru" in error
    assert list(tmp_path.glob("spins.csv*")) == []


FRENCH_SECTORS = {"voisins", "tiers", "orphelins"}  # the wheel's sectors keep their French names everywhere


def english_words(language: str) -> set[str]:
    """The words of the catalogs' English source texts that the language's own translations never
    use: any of them on a page in that language is a text left untranslated."""
    from babel.messages.pofile import read_po

    from croupier.i18n import catalog_path

    with open(catalog_path(language), "rb") as handle:
        catalog = read_po(handle)
    words = lambda text: set(re.findall(r"[a-z]{4,}", re.sub(r"\{[^{}]*\}", "", text).lower()))
    source, translated = set(), set()
    for message in catalog:
        if message.id:
            source |= words(" ".join(message.id) if isinstance(message.id, tuple) else message.id)
            translated |= words(" ".join(message.string) if isinstance(message.string, tuple) else message.string)
    return source - translated


@needs_pdf_tools
@pytest.mark.parametrize("language", ["pt", "ru", "it"])
def test_the_pdf_in_each_language_has_no_english_word(language, shift_journal, tmp_path):
    # Names, the profile's id and the hash are the journal's own, in every language.
    from croupier.table.events import to_record

    target = tmp_path / "report.pdf"
    assert main(["--db", str(shift_journal), "--pdf", str(target), "--language", language]) == 0
    text = pdf_text(target)
    names = {"by", "croupier", "player", "name", "incoming", "outgoing", "profile", "note", "casino", "table_id"}
    with Journal.open(shift_journal, read_only=True) as journal:
        records = [to_record(entry.event) for entry in journal.entries()]
    typed_reasons = {"result-corrected", "staff-relieved", "limits-changed", "profile-changed", "ball-replaced"}
    typed = " ".join(str(value) for record in records for key, value in record.items()  # as people typed them
                     if key in names or key == "reason" and record["kind"] in typed_reasons)
    kept = set(re.findall(r"[a-z]+", f"{typed} {shift_journal.name}".lower())) | FRENCH_SECTORS
    left = sorted(word for word in set(re.findall(r"[a-z]{4,}", text.lower()))
                  if word in english_words(language) and word not in kept)
    assert not left, f"English in the {language} PDF: {left}"
    assert "/ч" not in text or not re.search(r"\d\.\d/ч", text)  # 69,0/ч, not 69.0/ч
