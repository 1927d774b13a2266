"""The pages' server: textual-serve's, one screen process per browser tab (the review, the floor
view), with what a casino's page needs besides. The page asks nothing of any other host (textual-serve's
asks a public font service, which a casino's LAN does not reach and need not be told who looks): its
font is the one textual-serve ships. It takes the keys as soon as it opens, before any click. A screen
that cannot start (no journal there, a store away) says why in the page, which otherwise would wait
for ever on its title. A stop (systemctl stop, restart) ends each open tab's screen at once, as its
tab closing would, instead of waiting on the browsers for up to a minute."""
from __future__ import annotations

import asyncio
import json
import logging
import re
from typing import Any, cast

from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server as TextualServer, to_int

log = logging.getLogger("textual-serve")

FOREIGN_FONT = re.compile(r'\s*<link\s+rel="stylesheet"\s+href="https://fonts\.googleapis\.com/[^"]*"\s*/>')
STATIC = re.compile(r'href="([^"]*)css/xterm\.css"')  # where the page's own files are
PAGE_ADDITIONS = """
    <style>
      @font-face { font-family: "Roboto Mono"; src: url("STATIC/fonts/RobotoMono-VariableFont_wght.ttf"); }
    </style>
    <script>
      // The terminal takes the keys from the start: a pit boss types without clicking first.
      (function focusTerminal() {
        const keys = document.querySelector(".xterm-helper-textarea");
        if (keys) { keys.focus(); } else { setTimeout(focusTerminal, 50); }
      })();
    </script>
  </body>"""


class _Said:
    """A screen's standard error, as read, also kept: what it said before it ended."""

    def __init__(self, stream: asyncio.StreamReader) -> None:
        self.stream = stream
        self.text = bytearray()

    async def read(self, n: int = -1) -> bytes:
        data = await self.stream.read(n)
        self.text += data[: 4096 - len(self.text)]
        return data


class Screen(AppService):
    """One tab's screen process. One that ends without telling the page (it never started) has what
    it said shown in the page."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._said: _Said | None = None
        self._told = False  # the screen said it exits: the page closes itself

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        process = await super()._open_app_process(width, height)
        if process.stderr is not None:
            self._said = _Said(process.stderr)
            process.stderr = cast(asyncio.StreamReader, self._said)  # run() only reads it
        return process

    async def on_meta(self, data: bytes) -> None:
        self._told = self._told or json.loads(data).get("type") == "exit"
        await super().on_meta(data)

    async def run(self) -> None:
        await super().run()
        if self._told:
            return
        said = bytes(self._said.text if self._said else b"").decode("utf-8", "replace").strip()
        lines = said.splitlines() or ["the screen ended"]
        try:
            await self.remote_write_bytes(("\r\n".join(lines) + "\r\n").encode())
        except ConnectionError:  # the tab is gone already
            pass


class Server(TextualServer):
    """textual-serve's server (the same arguments), with the page and the stop above."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._tabs: set[asyncio.Task[Any]] = set()

    async def handle_index(self, request: web.Request) -> web.Response:
        page = await super().handle_index(request)  # the template rendered (aiohttp_jinja2's decorator)
        assert isinstance(page, web.Response)
        text = FOREIGN_FONT.sub("", page.text or "")
        static = STATIC.search(text)
        additions = PAGE_ADDITIONS.replace("STATIC/", static.group(1) if static else "static/")
        text = text.replace("</body>", additions, 1)
        return web.Response(text=text, content_type="text/html", charset="utf-8")

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """textual-serve's, with a Screen for the tab, and the tab known until it closes."""
        tab = asyncio.current_task()
        assert tab is not None
        self._tabs.add(tab)
        websocket = web.WebSocketResponse(heartbeat=15)
        screen: Screen | None = None
        try:
            await websocket.prepare(request)
            screen = Screen(self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                            close=websocket.close, download_manager=self.download_manager, debug=self.debug)
            await screen.start(to_int(request.query.get("width", "80"), 80),
                               to_int(request.query.get("height", "24"), 24))
            try:
                await self._process_messages(websocket, screen)
            finally:
                await screen.stop()
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:
            log.exception(error)
        finally:
            if screen is not None:
                await screen.stop()
            self._tabs.discard(tab)
        return websocket

    async def on_shutdown(self, app: web.Application) -> None:
        # Each tab's handler, cancelled, closes its socket and tells its screen to quit, then waits for it.
        tabs = list(self._tabs)
        for tab in tabs:
            tab.cancel()
        await asyncio.gather(*tabs, return_exceptions=True)
