"""The spin detail pane, for disputes (`PT-A 31`): type a spin number, or pick one in the timeline."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Input, Static

from croupier.i18n import _
from croupier.review.messages import SpinChosen
from croupier.history.spin_story import SpinStory


class SpinPane(Vertical):
    def compose(self) -> ComposeResult:
        yield Input(placeholder=_("spin number, then Enter (Esc: out of the box, 1-6 switch tabs)"), id="spin-number",
                    restrict=r"[0-9]*")
        with VerticalScroll(id="spin-scroll"):
            yield Static(_("Pick a spin in the timeline (Enter) or type its number."), id="spin-detail", markup=False)

    def show(self, story: SpinStory, currency: str | None = None) -> None:
        self.query_one("#spin-number", Input).value = str(story.spin)
        self.query_one("#spin-detail", Static).update("\n".join(story.lines(currency)))

    def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        if message.value.isdigit():
            self.post_message(SpinChosen(int(message.value)))
        else:
            self.query_one("#spin-detail", Static).update(_("{typed} is not a spin number").format(typed=repr(message.value)))
