"""A result reaches the terminal as one whole picture of its payout sheet, written first: the sheet
pushed again is not written as changes and then whole, and the table screen hidden under it is not
laid out again meanwhile (that wrote the whole sheet once more), and nothing follows it: the rows
of a result with more or fewer winning positions are laid out before the sheet is written, not
written laid out as the last sheet's and then again (Textual lays a widget out again when its size
changes). Each whole sheet is 3 KB or more, drawn cell by cell on a Pi's framebuffer console."""
from croupier.ui.app import TableApp
from ui_kit import press, settle


async def test_each_result_writes_its_payout_sheet_once(session, config, clock):
    app = TableApp(session, config, wheel=False)
    frames: list[str] = []
    display = app._display

    def counted(screen, renderable) -> None:
        if renderable is not None and screen.id == "payouts":
            frames.append(type(renderable).__name__)
        display(screen, renderable)

    app._display = counted
    async with app.run_test(size=(80, 24)) as pilot:
        written = []
        for number in ("4", "5", "4", "6"):
            await press(pilot, "enter", number)  # launch; the result, proposed at once
            del frames[:]
            await press(pilot, "enter")  # confirmed: the sheet comes
            await settle(pilot)
            written.append(list(frames))
            await press(pilot, "1", "d")  # one chip on the first row; payouts done
            clock.advance(seconds=5)
    assert written == [["LayoutUpdate"]] * 4, written
