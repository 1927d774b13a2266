"""What a table runs to be on the floor: the publisher woken by each committed event, and the
anchors it brings back recorded by the table's own thread (`drain`, from the table's loop)."""
from __future__ import annotations

from pathlib import Path

from croupier.floor.anchors import AnchorInbox
from croupier.floor.publisher import TablePublisher
from croupier.floor.wire import WireError, check_table_id


class FloorLinkError(Exception):
    """The floor link cannot start as configured: the message says why."""


def check_floor_link(table_id: str) -> str:
    """The table id, once it can name the table on the floor and nats-py is installed."""
    try:
        import nats  # noqa: F401  (the publisher's thread imports it; say now if it is missing)
    except ImportError:
        raise FloorLinkError("the floor link needs nats-py: pip install nats-py (hw/install.sh installs it)") from None
    try:
        return check_table_id(table_id)
    except WireError as exc:
        raise FloorLinkError(str(exc)) from None


class FloorLink:
    def __init__(self, session, journal_path: str | Path, table_id: str, url: str, **publisher_options) -> None:
        self.session = session
        self.inbox = AnchorInbox()
        self.publisher = TablePublisher(journal_path, check_floor_link(table_id), url, self.inbox, **publisher_options)
        self._unsubscribe = session.subscribe(self.publisher.wake)
        self.publisher.start()

    def drain(self) -> int:
        """Record the anchors the floor sent (from the thread that owns the session)."""
        return self.inbox.drain(self.session)

    def stop(self) -> None:
        self._unsubscribe()
        self.publisher.stop()
