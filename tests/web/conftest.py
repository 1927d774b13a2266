"""The browser for the pages' tests: Debian's Chromium through Playwright, one per test module."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from web_kit import CHROMIUM_ARGS, chromium  # noqa: E402


@pytest.fixture(scope="module")
def browser():
    executable = chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=list(CHROMIUM_ARGS))
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser):
    """A tab at a pit boss's screen size (about 140 columns by 40 rows of text)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        yield context.new_page()
    finally:
        context.close()
