"""What a table runs to be on the floor: the publisher woken by each committed event, and the
anchors it brings back recorded by the table's own thread (`drain`, from the table's loop)."""
from __future__ import annotations

from pathlib import Path

from croupier.floor.anchors import AnchorInbox
from croupier.floor.publisher import TablePublisher
from croupier.floor.wire import Access, AccessError, WireError, access_options, check_table_id
from croupier.journal.signing import SigningKeyError, read_public_key


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


def floor_public_key(path: Path | None):
    """The floor's public key from `path` (None: none configured). Raises FloorLinkError naming the file."""
    if path is None:
        return None
    try:
        return read_public_key(path)
    except SigningKeyError as exc:
        raise FloorLinkError(f"[floor] floor_key: {exc}") from None


def floor_access(credentials: Path | None, ca: Path | None) -> Access:
    """The table's login and CA, checked now (the mode of the credentials file included)."""
    access = Access(credentials, ca)
    try:
        access_options(access)
    except AccessError as exc:
        raise FloorLinkError(str(exc)) from None
    return access


class FloorLink:
    def __init__(self, session, journal_path: str | Path, table_id: str, url: str, *, floor_key: Path | None = None,
                 credentials: Path | None = None, ca: Path | None = None, **publisher_options) -> None:
        self.session = session
        self.inbox = AnchorInbox()
        self.publisher = TablePublisher(journal_path, check_floor_link(table_id), url, self.inbox,
                                        floor_key=floor_public_key(floor_key),
                                        access=floor_access(credentials, ca), **publisher_options)
        self._unsubscribe = session.subscribe(self.publisher.wake)
        self.publisher.start()

    def drain(self) -> int:
        """Record the anchors the floor sent (from the thread that owns the session)."""
        return self.inbox.drain(self.session)

    def stop(self) -> None:
        self._unsubscribe()
        self.publisher.stop()
