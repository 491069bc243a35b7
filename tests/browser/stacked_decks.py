"""The browser tests' stacked decks (the `stacked_decks` fixture of tests/browser/conftest.py):
the browser server deals the next deck a test wrote to a file, so a browser test can play a
hand whose every card it chose, dealt by the server as any hand is (its frames, its clock, its
commitment). Only the test server's settings (tests/browser/server_settings.py) install this
app, and only while the harness names the file; the room itself never does."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from django.apps import AppConfig
from django.conf import settings

_TAKING = threading.Lock()


def write_decks(path: Path, decks: list[list[int]]) -> None:
    """The decks the server deals next, in order (each 52 card ints); none: shuffled again."""
    staged = path.with_suffix(".new")
    staged.write_text("".join(json.dumps(deck) + "\n" for deck in decks))
    staged.replace(path)


def take_next_deck(path: Path) -> list[int] | None:
    """The first deck written and not dealt yet, taken off the file; None when there is none."""
    with _TAKING:
        if not path.exists():
            return None
        lines = path.read_text().splitlines()
        if not lines:
            return None
        write_decks(path, [json.loads(line) for line in lines[1:]])
        return [int(card) for card in json.loads(lines[0])]


class StackedDecksConfig(AppConfig):
    name = "tests.browser.stacked_decks"
    label = "browser_stacked_decks"

    def ready(self) -> None:
        from tables.services import hands

        named = getattr(settings, "BROWSER_TESTS_DECKS_FILE", None)
        if not named:
            return
        path = Path(named)
        shuffled = hands.shuffled_deck

        def next_deck() -> list[int]:
            stacked = take_next_deck(path)
            return stacked if stacked is not None else shuffled()

        hands.shuffled_deck = next_deck  # type: ignore[assignment]
