"""The browser tests' hold on their server's clock sweep (the `sweep_hold` fixture of
tests/browser/conftest.py; the server's side is tables/services/scheduling.py `sweep_hold`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


class SweepHold:
    """Holds the browser server's clock sweep off chosen tables for one test
    (tables/services/scheduling.py `sweep_hold`): while a table is held the sweep neither
    applies its passed deadlines (action clocks, the next hand, seat offers) nor schedules a
    task for its near ones, so a test can play hands in its own process, date them days ago
    or leave a table between hands without the server stepping in.

    Hold a table before it has a deadline within the sweep's horizon (1.5 s): a task the
    sweep sent before the hold still runs. What players do on a held table through its page
    still happens on the server (only the clock is held)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.held: set[int] = set()

    def tables(self, *tables: Any) -> None:
        """Hold these tables (rows or ids) from now on."""
        self.held.update(getattr(table, "pk", table) for table in tables)
        self._write()

    def release(self) -> None:
        """The sweep keeps every table's clock again, from its next run."""
        self.held.clear()
        self._write()

    def _write(self) -> None:
        staged = self.path.with_suffix(".new")
        staged.write_text("".join(f"{pk}\n" for pk in sorted(self.held)))
        staged.replace(self.path)  # the sweep reads the old list or the new, never half
