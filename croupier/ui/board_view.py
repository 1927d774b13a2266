"""The players' display board drawn on screen (the demo has no board wired): the same model the
GPIO board shows (croupier.board.model), its segments drawn as they are lit."""
from __future__ import annotations

from textual.widgets import Static

from croupier.board.model import DARK, Board
from croupier.i18n import N_, _

LAMPS = (
    ("red", N_("red"), "red"), ("black", N_("black"), "white"), ("green", N_("green"), "green"),
    ("bets_open", N_("bets open"), "green"), ("no_more_bets", N_("no more bets"), "yellow"),
    ("void", N_("void"), "magenta"),
)


def draw_digit(segments: frozenset[str]) -> list[str]:
    """Three rows of text lighting the segments a-g of one digit."""
    def on(segment: str, mark: str) -> str:
        return mark if segment in segments else " "

    return [
        f" {on('a', '_')} ",
        f"{on('f', '|')}{on('g', '_')}{on('b', '|')}",
        f"{on('e', '|')}{on('d', '_')}{on('c', '|')}",
    ]


class BoardView(Static):
    DEFAULT_CSS = "BoardView { width: auto; height: auto; border: round $primary; padding: 0 1; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.board = DARK

    def on_mount(self) -> None:
        self.border_title = _("Display board")
        # Wide enough for the whole title (the lamps' names can be shorter): corners, spaces and padding.
        self.styles.min_width = len(self.border_title) + 6
        self.show(self.board)

    def show(self, board: Board) -> None:
        self.board = board
        tens, units = draw_digit(board.segments(0)), draw_digit(board.segments(1))
        rows = [f"[b yellow]{t} {u}[/]" for t, u in zip(tens, units)]
        lamps = [f"[{style}]●[/] {_(name)}" if key in board.lamps else f"[dim]○ {_(name)}[/]"
                 for key, name, style in LAMPS]
        self.update("\n".join(rows + lamps))
