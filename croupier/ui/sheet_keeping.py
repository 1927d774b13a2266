"""The payout sheet's counts and marks kept beside the journal as they are typed
(`croupier.journal.sheet_draft`), and put back on the sheet after a restart, for the croupier to
check before D records them. Nothing here records anything: the journal stays the only record."""
from __future__ import annotations

import logging
from datetime import datetime

from croupier.history.clock import clock, stamp
from croupier.i18n import N_, _
from croupier.journal import sheet_draft
from croupier.journal.sheet_draft import DraftReason, DraftRefused, SheetDraft
from croupier.session import TableSession
from croupier.table.payouts import payouts_open
from croupier.table.state import Spin, TableState
from croupier.ui.payout_sheet import PayoutSheet

log = logging.getLogger(__name__)
WHY = {  # why a draft is not used, filled by its facts (an older count of this sheet: when it was written)
    DraftReason.UNREADABLE: N_("it cannot be read"),
    DraftReason.UNSAFE: N_("others may write it"),
    DraftReason.COPIED: N_("it is a copy put back, written at {time}"),
    DraftReason.TABLE: N_("it is of table {table}"),
    DraftReason.JOURNAL: N_("it is of another journal"),
    DraftReason.SPIN: N_("it is of spin {spin}"),
    DraftReason.NUMBER: N_("it counted {number} on spin {spin}"),
    DraftReason.RESULT: N_("it is of an earlier result of spin {spin}"),
}


class SheetKeeper:
    def __init__(self, session: TableSession, table: str) -> None:
        self.session = session
        self.table = table
        self.path = sheet_draft.draft_path(session.journal.path)
        self.pending: SheetDraft | None = None  # read at start-up, for the sheet of the open payouts
        self.kept_spin: int | None = None  # the spin whose draft is on disk
        self._kept: tuple | None = None  # what was written last: navigation keys write nothing
        self._failed = False

    def _journal(self) -> str:
        return self.session.journal.hash_at(1) or ""

    def start(self) -> str:
        """At start-up: the draft left by the last run, kept for the sheet of the payouts still open.
        What the croupier is told about it (empty: nothing to tell)."""
        result = self.session.state.last_result
        if not self.path.exists():
            return ""
        if result is None:
            return self._refused(DraftRefused(DraftReason.JOURNAL))
        try:
            draft = sheet_draft.load(self.path, self.session.journal.key, table=self.table, journal=self._journal(),
                                     spin=result.spin, number=result.number, result_time=result.time.isoformat())
        except DraftRefused as refused:
            return self._refused(refused)
        if draft is None:
            return ""
        if payouts_open(self.session.state) != draft.spin:  # recorded before the draft was removed
            sheet_draft.discard(self.path)
            return ""
        self.pending, self.kept_spin = draft, draft.spin
        return _("B: the payout sheet of spin {spin} with the counts typed before the restart").format(
            spin=draft.spin)

    def _refused(self, refused: DraftRefused) -> str:
        log.warning("payout sheet draft %s not used: %s %s", self.path, refused.reason, refused.facts)
        if refused.ours:  # this table's own, of a spin gone by
            sheet_draft.discard(self.path)
        facts = refused.facts
        why = _(WHY[refused.reason]).format(
            table=facts.get("table"), spin=facts.get("spin"), number=facts.get("number"),
            time=stamp(str(facts["written"])) if "written" in facts else "")
        return _("The payout sheet kept before the restart was not used: {why}").format(why=why)

    def restore(self, sheet: PayoutSheet, spin: Spin) -> str:
        """Put the draft read at start-up on a new `sheet` of `spin`, if it is this sheet's; what
        the croupier is told (empty: nothing was put back)."""
        draft, self.pending = self.pending, None
        if draft is None:
            return ""
        if (draft.spin, draft.number, draft.result_time) != (spin.spin, spin.number, spin.time.isoformat()):
            return self._refused(DraftRefused(DraftReason.NUMBER, ours=True, spin=draft.spin, number=draft.number))
        whole = sheet.take_back(draft.counts, draft.played)
        self._kept = self._of(sheet)
        message = _("Counts typed before the restart, kept at {time}, are back: check them · D records them").format(
            time=clock(datetime.fromisoformat(draft.written)))
        return message if whole else message + " · " + _("some no longer fit the sheet and were left out")

    @staticmethod
    def _of(sheet: PayoutSheet) -> tuple:
        return (sheet.spin, sheet.number, tuple(sorted(sheet.counts.items())), tuple(sorted(sheet.marked)))

    def keep(self, sheet: PayoutSheet, spin: Spin) -> None:
        """The sheet's counts and marks, written beside the journal when they changed."""
        now = self._of(sheet)
        if now == self._kept:
            return
        draft = SheetDraft(table=self.table, journal=self._journal(), spin=spin.spin, number=spin.number,
                           result_time=spin.time.isoformat(),
                           counts=tuple((colour, spec, chips) for (colour, spec), chips in sheet.counts.items()),
                           played=tuple(colour for colour in sheet.players if colour in sheet.marked))
        try:
            sheet_draft.save(self.path, draft, self.session.journal.key)
        except OSError as exc:  # the sheet goes on; only a restart would lose the counts
            if not self._failed:
                log.warning("the payout sheet cannot be kept in %s: %s", self.path, exc)
            self._failed = True
            return
        self._failed = False
        self._kept, self.kept_spin = now, spin.spin

    def table_moved(self, state: TableState) -> None:
        """The payouts of the spin kept were recorded, or the next result came: the draft is of no use."""
        if self.kept_spin is not None and payouts_open(state) != self.kept_spin:
            sheet_draft.discard(self.path)
            self.kept_spin, self._kept, self.pending = None, None, None
