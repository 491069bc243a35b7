"""The browser room's pure modules (static/js/handstate.js, static/js/table/store.js) tested
in the Chromium the browser tests use, through Playwright's async API (these tests also
record frames from the consumer, which is asyncio).

No server: the page is a blank document at http://room.test/ whose requests Playwright answers
from this repository (static/js and tests/js only), so the modules load as the room serves
them, ES modules as they are. Each test calls an exported function of a module in the page
and asserts on what it returns.
"""

from __future__ import annotations

import json
import mimetypes
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

ROOT = Path(__file__).resolve().parents[2]
SERVED = (ROOT / "static" / "js", ROOT / "tests" / "js")
ORIGIN = "http://room.test"
CHROMIUM = (
    os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE")
    or os.environ.get("POKERROOM_CHROMIUM")
    or "/usr/bin/chromium"
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without Playwright or Chromium these are skipped with the reason, except where
    POKERROOM_REQUIRE_SERVICES=1 (CI): there a missing browser fails them."""
    reason = None
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        reason = "playwright is not installed"
    if reason is None and shutil.which(CHROMIUM) is None and not os.path.exists(CHROMIUM):
        reason = f"no Chromium at {CHROMIUM}"
    if reason is None or os.environ.get("POKERROOM_REQUIRE_SERVICES") == "1":
        return
    for item in items:
        if item.path.parent == Path(__file__).parent:
            item.add_marker(pytest.mark.skip(reason=reason))


class ModulePage:
    """A Chromium page that imports the room's modules and calls their functions."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []

    async def call(self, module: str, function: str, *args: Any) -> Any:
        """`function(...args)` exported by `module` (a path such as
        "/tests/js/store_checks.js"); the arguments and the answer go through JSON."""
        return await self.page.evaluate(
            """async ([module, name, args]) => {
                const exports = await import(module);
                return JSON.parse(JSON.stringify(await exports[name](...args)));
            }""",
            [module, function, json.loads(json.dumps(args))],
        )


async def _serve(route: Any) -> None:
    path = route.request.url.removeprefix(ORIGIN).split("?")[0]
    if path == "/":
        await route.fulfill(
            status=200, content_type="text/html", body="<!doctype html><title>js</title>"
        )
        return
    file = (ROOT / path.lstrip("/")).resolve()
    if not any(file.is_relative_to(folder) for folder in SERVED) or not file.is_file():
        await route.fulfill(status=404, body="not served")
        return
    kind = mimetypes.guess_type(file.name)[0] or "text/plain"
    if file.suffix == ".js":
        kind = "text/javascript"
    await route.fulfill(status=200, content_type=kind, body=file.read_text())


@pytest_asyncio.fixture
async def modules() -> AsyncIterator[ModulePage]:
    """A page at http://room.test/ that can import /static/js/... and /tests/js/...; a test
    that leaves an error in its console fails."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            page = await browser.new_page()
            loaded = ModulePage(page)
            page.on("pageerror", lambda error: loaded.errors.append(str(error)))
            page.on(
                "console",
                lambda message: (
                    loaded.errors.append(message.text) if message.type == "error" else None
                ),
            )
            await page.route(f"{ORIGIN}/**", _serve)
            await page.goto(f"{ORIGIN}/")
            yield loaded
            assert loaded.errors == [], loaded.errors
        finally:
            await browser.close()
