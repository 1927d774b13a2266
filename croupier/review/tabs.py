"""The review's tabs: a tab is shown by the key that asks for it, never again by a focus that has
since moved on."""
from __future__ import annotations

from textual.widgets import TabbedContent, TabPane


class ReviewTabs(TabbedContent):
    def _on_tab_pane_focused(self, event: TabPane.Focused) -> None:
        # A pane says a widget in it took the focus only once its messages are handled: keys typed at
        # once (Escape, then 3) have by then moved the focus to another tab, which must stay shown.
        focused = self.screen.focused
        if focused is None or event.tab_pane not in focused.ancestors_with_self:
            event.prevent_default()  # TabbedContent's own handler would bring the stale pane back
            event.stop()
