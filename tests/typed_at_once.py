"""Keys typed at once, as a browser or a remote terminal sends them: the text read as Textual's
drivers read a terminal's (its xterm parser), and every key queued at the app before the first is
handled (Pilot's `press` lets each key settle before the next)."""
from textual._xterm_parser import XTermParser


async def type_at_once(app, pilot, text: str) -> None:
    parser = XTermParser()
    for key in [*parser.feed(text), *parser.feed("")]:  # the text's end: a last Escape is the Escape key
        key.set_sender(app)
        app._driver.send_message(key)
    for _ in range(8):
        await pilot.pause()
