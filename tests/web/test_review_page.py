"""The review page as the pit boss opens it: `croupier-review-web.service`'s command on a journal the
table's session wrote, read and worked in Chromium."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from web_kit import descendants, listening_addresses, screen, served, shows, wait_until

sys.path.insert(0, str(Path(__file__).parents[1] / "journal"))
from journal_kit import NUMBERS, stored_head, write_shift  # noqa: E402

UNIT = "croupier-review-web.service"
JOURNAL = "/var/lib/croupier/journal.db"


@pytest.fixture
def review(tmp_path):
    """The unit serving a journal the session wrote: (URL, server process, the journal's head)."""
    db = tmp_path / "journal.db"
    write_shift(db).close()
    with served(UNIT, tmp_path, replace={JOURNAL: str(db)}) as (url, process):
        yield url, process, stored_head(db)


def start(page, url: str) -> None:
    """The page opened, never clicked into: it takes the keys from the start."""
    page.goto(url)
    shows(page, "croupier review")


def test_the_review_page_shows_the_journals_figures_across_the_window(review, page):
    url, _, (head, digest) = review
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    start(page, url)
    text = shows(page, "(read-only)", f"head: event {head}, hash", digest, f"{head} of {head} events",
                 "spin 8: result 23 red (keypad, confirmed by Ana)")
    rows = text.splitlines()
    assert min(map(len, rows)) > 120  # the browser's width, not a terminal's 80 columns
    page.set_viewport_size({"width": 800, "height": 800})  # a narrower window: the screen follows it
    # The footer ends at the window's new edge (xterm keeps the wider rows' old cells past it).
    wait_until(lambda: 0 < screen(page).splitlines()[-1].find("^p palette") < 90, what="the screen narrowing")
    shows(page, f"head: event {head}, hash", f"{head} of {head} events")
    assert asked and all(u.startswith((url, url.replace("http", "ws", 1))) for u in asked), asked  # no other host


def test_keys_typed_at_once_in_the_page_reach_the_review(review, page):
    # Typed before any click. A browser sends keys as they come; typed at once they arrive together:
    # "/" and the filter after it must still land in the filter, not on the list's own keys (s, q).
    url, _, (head, _digest) = review
    start(page, url)
    shows(page, f"{head} of {head} events")
    page.keyboard.type("/kind:spin-voided\n")
    shows(page, f"1 of {head} events", "spin 3: VOID (chip-fell")
    page.keyboard.type("6")
    shows(page, f"{len(NUMBERS)} spins")
    # Escape and a digit at once: the Escape leaves the box first, and 2 opens the Spin tab.
    page.keyboard.type("/x")
    page.keyboard.press("Escape")
    page.keyboard.type("2")
    shows(page, "spin number, then Enter")
    page.keyboard.type("j5\n")  # the spin's number lands in the box "j" opens, not on the tabs' 1-6
    shows(page, "spin 5", f"result: {NUMBERS[4]}")


def test_a_closed_tab_leaves_no_review_process_behind(review, browser):
    url, process, _ = review
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(url)
    shows(page, "(read-only)")
    assert descendants(process.pid)  # the tab's review process
    context.close()
    wait_until(lambda: not descendants(process.pid), what="the review process ending with its tab")


def test_stopping_the_service_ends_each_open_tabs_review(review, page):
    # systemctl stop or restart: each open tab's review told to quit, at once, not after the browsers.
    url, process, _ = review
    page.goto(url)
    shows(page, "(read-only)")
    screens = descendants(process.pid)
    assert screens
    process.terminate()
    process.wait(timeout=15)  # textual-serve alone waited on the open tab for 20 s and more
    wait_until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in screens), what="the review ending")
    wait_until(lambda: "-closed" in (page.evaluate("document.body.className") or ""), what="the page saying so")


def test_a_review_that_cannot_start_says_why_in_the_page(tmp_path, page):
    # The page would otherwise wait on its title for ever, the reason only in the service's log.
    missing = tmp_path / "journal.db"
    with served(UNIT, tmp_path, replace={JOURNAL: str(missing)}) as (url, _):
        page.goto(url)
        shows(page, f"croupier review: {missing}: no such journal")


def test_the_review_page_is_served_on_localhost_only(review):
    url, _, _ = review
    assert listening_addresses(int(url.rsplit(":", 1)[1].strip("/"))) == {"127.0.0.1"}
