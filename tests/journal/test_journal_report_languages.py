"""The shift report speaks the table's language: `[table] language` from the configuration, or
`--language`; every line of the text report is then worded in it, while `--json` stays the same
machine-readable object whatever the language. A language croupier has no catalog for is refused."""
from __future__ import annotations

import json
import re

import pytest

from croupier import config
from croupier.cli import main as cli
from croupier.i18n import install

from journal_kit import write_closed_shift_with_raised_minimum, write_shift


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    """journal_kit's shift (8 spins, a void of spin 3 because a chip fell, red at 5 a chip), and the
    minimum raised from 5 to 10."""
    return write_closed_shift_with_raised_minimum(tmp_path_factory.mktemp("languages") / "journal.db")


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    """No configuration but the test's, and English again after."""
    monkeypatch.delenv("CROUPIER_CONFIG", raising=False)
    monkeypatch.setattr(config, "SYSTEM_CONFIG", tmp_path / "no-such-croupier.toml")
    yield
    install("en")


def settings(tmp_path, language: str) -> str:
    path = tmp_path / f"croupier-{language}.toml"
    path.write_text(f'[table]\ncurrency = "EUR"\nlanguage = "{language}"\ntime_zone = "UTC"\n')
    return str(path)


def report(capsys, journal, *options) -> str:
    assert cli(["report", "--db", str(journal), "--fresh", *options]) == 0
    return capsys.readouterr().out


def left_in_english(text: str, english: str) -> list[str]:
    """The lines of `text` that are word for word a line of the English report."""
    same = set(english.splitlines()) - {""}
    return [line for line in text.splitlines() if line in same]


EXPECTED = {
    "pt": ["Relatório do turno: 8 jogadas, 1 golpe nulo, 0 correções",
           "Montantes em EUR",
           "mesa aberta com pt-americana, mínimo 5,00 EUR, por Ana",
           "mínimo 5,00 -> 10,00 EUR por Boss (busy night)",
           "Golpes nulos: 1",
           "#3 Caiu uma ficha no cilindro, bola de volta ao número 0, por Ana",
           "Trocas de bola: 0",
           "Registo das cores (PT-A 9): 1, montantes em EUR",
           "vermelho seat 1",
           "apostado 24, pago 41, recolhido 17, devolvido 7",
           "Totais: comprado 1\u00a0000,00 EUR, trocado 0,00 EUR, fichas tardias 0,00 EUR",
           "Estatísticas do cilindro (8 jogadas): Qui-quadrado sobre os 37 números",
           "Topo do diário: evento"],
    "ru": ["Отчёт за смену: 8 спинов, 1 недействительный спин, 0 исправлений",
           "Суммы в EUR",
           "стол открыт по pt-americana, минимум 5,00 EUR, открыл(а) Ana",
           "Недействительные спины: 1",
           "#3 В колесо упал жетон, шарик обратно в ячейку 0, объявил(а) Ana",
           "Смены шарика: 0",
           "Учёт цветов (PT-A 9): 1, суммы в EUR",
           "красный  seat 1",
           "поставлено 24, выплачено 41, собрано 17, возвращено 7",
           "Итого: куплено 1\u00a0000,00 EUR, обменено 0,00 EUR, поздние жетоны 0,00 EUR",
           "Статистика колеса (8 спинов): Хи-квадрат по 37 ячейкам",
           "Конец журнала: событие"],
    "it": ["Rapporto del turno: 8 colpi, 1 colpo nullo, 0 correzioni",
           "Importi in EUR",
           "tavolo aperto con pt-americana, minimo 5,00 EUR, da Ana",
           "Colpi nulli: 1",
           "#3 È caduto un gettone nel cilindro, pallina di nuovo nella casella 0, da Ana",
           "Cambi di pallina: 0",
           "Registro dei colori (PT-A 9): 1, importi in EUR",
           "rosso    seat 1",
           "puntato 24, pagato 41, raccolto 17, restituito 7",
           "Totali: acquistato 1.000,00 EUR, cambiato 0,00 EUR, gettoni in ritardo 0,00 EUR",
           "Statistiche del cilindro (8 colpi): Chi quadrato sulle 37 caselle",
           "Testa del giornale: evento"],
}


@pytest.mark.parametrize("language", sorted(EXPECTED))
def test_the_report_speaks_the_language_of_the_tables_configuration(journal, tmp_path, capsys, language):
    english = report(capsys, journal, "--config", settings(tmp_path, "en"))
    assert "Shift report: 8 spins, 1 void, 0 corrections" in english
    text = report(capsys, journal, "--config", settings(tmp_path, language))
    for words in EXPECTED[language]:
        assert words in text, words
    assert left_in_english(text, english) == []
    assert len(text.splitlines()) == len(english.splitlines())


def test_language_overrides_the_configuration(journal, tmp_path, capsys):
    text = report(capsys, journal, "--config", settings(tmp_path, "pt"), "--language", "it")
    assert text.startswith("Rapporto del turno: 8 colpi, 1 colpo nullo, 0 correzioni\n")
    assert "Colpi nulli: 1" in text and "Golpes nulos" not in text
    english = report(capsys, journal, "--config", settings(tmp_path, "ru"), "--language", "en")
    assert english.startswith("Shift report: 8 spins, 1 void, 0 corrections\n")
    assert "Voids: 1" in english


def test_without_a_configuration_the_report_is_in_english(journal, capsys):
    text = report(capsys, journal)
    assert text.startswith("Shift report: 8 spins, 1 void, 0 corrections\n")
    assert "  Ana                   8   60.0/h  voids 1, corrections 0" in text
    assert "Wheel statistics (8 spins): Chi-square over the 37 pockets" in text


def test_the_language_option_works_without_a_configuration(journal, capsys):
    text = report(capsys, journal, "--language", "ru")
    assert text.startswith("Отчёт за смену: 8 спинов, 1 недействительный спин, 0 исправлений\n")
    assert "Суммы — деньги в валюте стола, которую журнал не записывает (её задаёт --config)" in text
    assert "минимум 5,00 (деньги)" in text


def test_json_is_the_same_whatever_the_language(journal, tmp_path, capsys):
    english = report(capsys, journal, "--config", settings(tmp_path, "en"), "--json")
    for options in (("--config", settings(tmp_path, "pt")), ("--config", settings(tmp_path, "ru")),
                    ("--config", settings(tmp_path, "en"), "--language", "it")):
        assert report(capsys, journal, *options, "--json") == english
    parsed = json.loads(english)
    assert parsed["voids"][0]["reason"] == "chip-fell"
    assert parsed["statistics"]["chi_square"]["plain"].startswith("Chi-square over the 37 pockets")


def test_a_language_without_a_catalog_is_refused(journal, tmp_path, capsys):
    assert cli(["report", "--db", str(journal), "--language", "xx"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "croupier report: --language: there is no 'xx' catalog; use one of en, it, pt, ru" in err
    assert cli(["report", "--db", str(journal), "--config", settings(tmp_path, "pt"), "--language", "xx",
                "--json"]) == 2
    assert capsys.readouterr().out == ""


@pytest.fixture(scope="module")
def one_number(tmp_path_factory):
    """A wheel that gives 17 every time, 190 spins: the chi-square over the pockets raises its alert."""
    path = tmp_path_factory.mktemp("biased") / "journal.db"
    write_shift(path, numbers=(17,) * 190).close()
    return path


@pytest.mark.parametrize("language, alert", [
    ("en", "  One look: the 37 pockets are not evenly hit (p = "),
    ("pt", "  Uma só olhada: os 37 números não saem por igual (p = "),
    ("ru", "  Один взгляд: 37 ячеек выпадают неравномерно (p = "),
    ("it", "  Un solo sguardo: le 37 caselle non escono in modo uniforme (p = "),
])
def test_the_statistics_alert_is_worded_in_the_tables_language(one_number, tmp_path, capsys, language, alert):
    text = report(capsys, one_number, "--config", settings(tmp_path, language))
    lines = [line for line in text.splitlines() if line.startswith(alert)]
    assert lines, text
    furthest = {"en": "furthest out: number 17, 190 times for 5.1 expected",
                "pt": "o mais afastado: número 17, 190 vezes para 5,1 esperadas",
                "ru": "дальше всех от нормы: номер 17, 190 раз при 5,1 ожидаемых",
                "it": "la più lontana: numero 17, 190 volte per 5,1 attese"}[language]
    assert furthest in lines[0]


@pytest.fixture(scope="module")
def entries(journal):
    from croupier.journal.store import Journal

    with Journal.open(journal, read_only=True) as opened:
        return list(opened.entries())


def history_texts(entries) -> list[str]:
    """What the review shows of the shift: its timeline, the story of the void spin, the procedures'
    and the shift result's tables, and the statistics."""
    from croupier.history.procedures import procedure_tables
    from croupier.history.records import numbered
    from croupier.history.shift_results import shift_result_table, shift_results
    from croupier.history.spin_story import spin_story
    from croupier.history.statistics import entries_spins, statistics_text
    from croupier.history.timeline import timeline

    records = list(numbered(entries))
    tables = [*procedure_tables(records), shift_result_table(shift_results(records))]
    return ([row.text for row in timeline(entries)] + spin_story(entries, 3).lines()
            + [t.title for t in tables] + [" | ".join(t.columns) for t in tables]
            + [" | ".join(row) for t in tables for row in t.rows]
            + statistics_text(entries_spins(entries), "american", "shift").splitlines()[:3])


def test_the_history_the_review_shows_speaks_the_tables_language(entries):
    english = history_texts(entries)
    assert "spin 3: VOID (chip-fell, keypad) by Ana, ball back in 0" in english
    assert "golpe nulo 14:02:40: chip-fell (keypad) by Ana, ball put back in 0".split(" 14")[0] in \
        " ".join(english)
    install("pt")
    portuguese = history_texts(entries)
    assert "jogada 3: GOLPE NULO (Caiu uma ficha no cilindro, teclado) por Ana, bola de volta ao número 0" in portuguese
    assert "jogada 3: resultado 32 vermelho (teclado, confirmado por Ana)" in portuguese
    assert "Golpes nulos" in portuguese and "hora | jogada | motivo | origem | por | bola de volta ao | visto" in portuguese
    assert "shift: 8 jogadas contadas" in portuguese and any("dos anos de cilindro" in line for line in portuguese)
    assert [line for line in portuguese if line in english and re.search("[a-z]{3,}", line)] == []
    install("ru")
    russian = history_texts(entries)
    assert "спин 3: НЕДЕЙСТВИТЕЛЕН (В колесо упал жетон, клавиатура), объявил(а) Ana, шарик обратно в ячейку 0" in russian
    install("it")
    italian = history_texts(entries)
    assert "colpo 3: NULLO (È caduto un gettone nel cilindro, tastiera) da Ana, pallina di nuovo nella casella 0" in italian


@pytest.fixture(scope="module")
def overdue(tmp_path_factory):
    """journal_kit's shift, then 70 minutes more with Ana at the wheel and ball A in play (PT-A 33,
    PT-A 17: at most an hour each): two alarms, neither acknowledged."""
    from croupier.table.clock import FakeClock

    path = tmp_path_factory.mktemp("overdue") / "journal.db"
    clock = FakeClock()
    session = write_shift(path, clock)
    clock.advance(minutes=70)
    session.tick()
    session.close()
    return path


@pytest.mark.parametrize("language, lines", [
    ("en", ["Alarms: 2", "relief-overdue: Ana has been croupier for more than 60 min (PT-A 33); OPEN"]),
    ("pt", ["Alarmes: 2", "Rendição do croupier em atraso: Ana está como croupier há mais de 60 min (PT-A 33); ABERTO",
            "Troca de bola em atraso: A bola A está em jogo há mais de 60 min: trocar e anunciar (PT-A 17); ABERTO"]),
    ("ru", ["Тревоги: 2", "Смена дилера просрочена: Ana — дилер дольше 60 мин (PT-A 33); НЕ СНЯТА"]),
    ("it", ["Allarmi: 2", "Cambio del croupier in ritardo: Ana è croupier da più di 60 min (PT-A 33); APERTO"]),
])
def test_the_alarms_are_worded_from_their_facts(overdue, capsys, language, lines):
    text = report(capsys, overdue, "--language", language)
    for line in lines:
        assert line in text, line


def test_the_timeline_and_the_procedures_word_alarms_from_their_facts(overdue):
    from croupier.history.procedures import procedure_tables
    from croupier.history.records import numbered
    from croupier.history.timeline import timeline
    from croupier.journal.store import Journal

    with Journal.open(overdue, read_only=True) as opened:
        entries = list(opened.entries())
    english = [row.text for row in timeline(entries) if row.kind == "alarm-raised"]
    assert english[0] == ("alarm 1 raised: relief-overdue (croupier Ana on since 2025-01-06T14:00:00+00:00) Ana has "
                          "been croupier for more than 60 min (PT-A 33)")
    install("pt")
    texts = [row.text for row in timeline(entries) if row.kind == "alarm-raised"]
    assert texts == ["alarme 1 disparado: Rendição do croupier em atraso (Ana) Ana está como croupier há mais de "
                     "60 min (PT-A 33)",
                     "alarme 2 disparado: Troca de bola em atraso (bola A) A bola A está em jogo há mais de 60 min: trocar "
                     "e anunciar (PT-A 17)"]
    alarms = next(table for table in procedure_tables(numbered(entries)) if table.title == "Alarmes")
    assert alarms.rows[0][2:5] == ("Rendição do croupier em atraso", "Ana",
                                   "Ana está como croupier há mais de 60 min (PT-A 33)")
