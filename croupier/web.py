"""The pages' server: textual-serve's, one screen process per browser tab (the review, the floor
view), with what a casino's page needs besides. The page asks nothing of any other host (textual-serve's
asks a public font service, which a casino's LAN does not reach and need not be told who looks): its
font is the one textual-serve ships. It takes the keys as soon as it opens, before any click. A stop
(systemctl stop, restart) ends each open tab's screen at once, as its tab closing would, instead of
waiting on the browsers for up to a minute."""
from __future__ import annotations

import asyncio
import re
from typing import Any

from aiohttp import web
from textual_serve.server import Server as TextualServer

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
        tab = asyncio.current_task()
        assert tab is not None
        self._tabs.add(tab)
        try:
            return await super().handle_websocket(request)
        finally:
            self._tabs.discard(tab)

    async def on_shutdown(self, app: web.Application) -> None:
        # Each tab's handler, cancelled, closes its socket and tells its screen to quit, then waits for it.
        tabs = list(self._tabs)
        for tab in tabs:
            tab.cancel()
        await asyncio.gather(*tabs, return_exceptions=True)
