"""Browser tests: Playwright driving Debian's Chromium against a live ASGI server.

The server (``tests/e2e/live.py``) runs in a subprocess with real websockets and its own
database, once per test session. Each test gets fresh browser contexts, and fails if a
page logs a console error or throws.

Without Chromium or Playwright the tests skip and say how to get them; with ``CI`` set
that is a failure instead (``.ci/run`` installs Chromium when it is missing).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.live import LiveServer
from tests.services import ci

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: a browser test against a live server (tests/e2e)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


def _missing(what: str) -> None:
    message = f"{what} Install it with `apt-get install -y chromium` (or set CHROMIUM)."
    if ci():
        pytest.fail(f"CI is set, so this is a failure: {message}", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def e2e_server() -> Iterator[LiveServer]:
    with LiveServer() as server:
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Playwright's sync API runs an event loop in this thread while it is open: it is
    opened per module, so that the tests after the browser tests find no running loop."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("The playwright package is not installed.")
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        _missing(f"No Chromium at {CHROMIUM}.")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        yield browser
        browser.close()


class Pages:
    """Opens browser contexts for one test and checks their consoles at the end."""

    def __init__(self, browser: Any, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def new(
        self,
        *,
        locale: str = "en-GB",
        width: int = 1280,
        height: int = 900,
        timezone_id: str | None = None,
    ) -> Any:
        context = self.browser.new_context(
            base_url=self.base_url,
            locale=locale,
            viewport={"width": width, "height": height},
            timezone_id=timezone_id,
        )
        context.set_default_timeout(30_000)
        self.contexts.append(context)
        page = context.new_page()
        self.watch(page)
        return page

    def watch(self, page: Any) -> None:
        def on_console(message: Any) -> None:
            if message.type == "error":
                self.errors.append(f"{page.url}: console error: {message.text}")

        page.on("console", on_console)
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: page error: {error}"))

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Any, e2e_server: LiveServer) -> Iterator[Pages]:
    opened = Pages(browser, e2e_server.url)
    yield opened
    opened.close()
    e2e_server.stop_tables_left_playing()
    report = "\n".join(opened.errors)
    if "status of 5" in report:  # a server error: its traceback is in the server's log
        report += f"\n--- the end of the server's log ---\n{e2e_server.log()}"
    assert not opened.errors, report
