"""Two screens in one process, each in its own language and currency: what one shows never takes
the other's words, numbers or money (each holds its presentation, not a process-wide language)."""
from billboard_kit import opened, spins
from croupier.billboard.app import BillboardApp
from croupier.history import clock
from croupier.i18n import Presentation, _, showing
from croupier.journal.store import Journal
from test_billboard_app import screen_text, write


async def test_a_russian_and_a_portuguese_monitor_side_by_side_keep_their_own_language(tmp_path):
    path = tmp_path / "journal.db"
    write(path, [opened(), *spins([17, 5])])
    russian = BillboardApp(path, table_name="Рулетка 1", poll_s=0.05, presentation=Presentation.of("ru"))
    portuguese = BillboardApp(path, table_name="Roleta 1", poll_s=0.05, presentation=Presentation.of("pt"))
    async with russian.run_test(size=(100, 30)) as ru_pilot, portuguese.run_test(size=(100, 30)) as pt_pilot:
        with Journal.open(path) as journal:  # a new result both redraw, the Portuguese started last
            journal.append(spins([0], first_spin=3, minutes=4))
        for _round in range(400):  # each polls the journal on its own; a loaded machine may take seconds
            await ru_pilot.pause(0.05)
            await pt_pilot.pause()
            if "Последние 3" in " ".join(screen_text(russian).split()) and "Últimas 3" in screen_text(portuguese):
                break
        ru_text, pt_text = " ".join(screen_text(russian).split()), " ".join(screen_text(portuguese).split())
        assert "Последние 3 спина" in ru_text and "Красное 33" in ru_text and "150,00" in ru_text
        assert "Últimas 3 jogadas" in pt_text and "Vermelho 33" in pt_text and "150,00" in pt_text
        assert "Vermelho" not in ru_text and "Красное" not in pt_text
        # A paper written meanwhile in a third language and zone changes neither screen.
        italian = Presentation.of("it").in_zone("Europe/Rome")
        with showing(italian):
            assert _("Last {spins} spin") != "Last {spins} spin"
            assert clock.zone_label(opened().time).startswith("Europe/Rome")
        await ru_pilot.pause(0.1)
        assert "Последние 3 спина" in " ".join(screen_text(russian).split())
        assert "Vermelho" in screen_text(portuguese)
