"""The table sign from the pit boss's menu: PIN first, one entry typed, recorded, in force at once
(between spins)."""
from decimal import Decimal

from croupier.table.regulation import limits_of
from ui_kit import PINS, flat, press, screen_text


async def test_the_pit_boss_menu_posts_a_new_plein_maximum(table_app, session):
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "d", "7", "1", *PINS["Marta"], "enter", "6")  # pit boss, then the table sign
        assert "Plein maximum · now 150.00 EUR" in flat(screen_text(table_app))
        await press(pilot, "1", "5", "0", "enter", "1")  # plein maximum: 50, management's decision
        assert "The table sign is changed" in flat(screen_text(table_app))
    assert session.state.sign == {"maximum.plein": Decimal(50)}
    assert limits_of(session.state).maxima["plein"] == 50


async def test_a_sign_above_the_regulations_cap_is_refused_in_the_tables_language(table_app, session):
    from croupier.i18n import install

    install("pt")
    async with table_app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "d", "7", "1", *PINS["Marta"], "enter", "6", "1")  # the plein maximum
        await press(pilot, "1", "0", "0", "0", "enter", "1")  # 1000, above PT-A 32's 30 x 5
        text = flat(screen_text(table_app))
        assert "Recusado: Pleno: máximo: 1 000,00 acima do limite do regulamento, 150,00 (PT-A 32a-b)" in text
    assert session.state.sign == {}
