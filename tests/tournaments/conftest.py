"""Tournament play tests drive every step themselves with a controlled clock: the tasks the
services send (the next deal, an action clock, the tournament's step between hands) are
recorded here, never run."""

from __future__ import annotations

from typing import Any

import pytest

from tables.services import scheduling


@pytest.fixture(autouse=True)
def tasks_sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    sent: list[tuple[str, tuple[Any, ...]]] = []

    def record(name: str, *args: Any, countdown: float, **options: Any) -> None:
        sent.append((name, args))

    monkeypatch.setattr(scheduling, "task_send", record)
    return sent
