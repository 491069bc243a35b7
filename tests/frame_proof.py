"""Issue #23's proof, Zulip's way (its `check_events_state`), used for every service that
sends frames: for each viewer (the player acting, another player, a watcher), the snapshot
before the change plus the frames that viewer received, applied by the page's own store
(static/js/table/store.js, run under Node: tests/js/replay.mjs), leaves what the snapshot
after the change alone leaves; every frame validates against its declaration
(tables/realtime/frames.py); no viewer receives a card they may not see.

    with frame_proof(table, [alice, bob, None], capture) as proof:
        act(table, alice, "call", 25)
    proof.check()  # raises AssertionError naming the viewer and what differs

`PROVED` lists the services proved so (tests/tables/test_frame_proof.py), and a test fails
for a frame-sending service that is not there."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from accounts.models import Player
from tables.models import Table
from tables.realtime.frames import Event, frame_check, frame_text
from tables.selectors import table_snapshot
from tables.services import chat as chat_module
from tables.services import outbox as outbox_module
from tables.services.results import Frames

ROOT = Path(__file__).resolve().parents[1]
REPLAY = ROOT / "tests" / "js" / "replay.mjs"
NODE = shutil.which("node")


@dataclass
class Proof:
    table: Table
    viewers: Sequence[Player | None]
    before: list[dict[str, Any]] = field(default_factory=list)
    after: list[dict[str, Any]] = field(default_factory=list)
    sent: list[Frames] = field(default_factory=list)

    def received(self, viewer: Player | None) -> list[dict[str, Any]]:
        """The frames this viewer's socket got, in order, as JSON: each change's table group
        message, then their own group's (tables.services.broadcast sends them so)."""
        frames: list[dict[str, Any]] = []
        for batch in self.sent:
            wire = list(batch.table)
            if viewer is not None:
                wire += batch.users.get(viewer.pk, [])
            for frame in wire:
                frame_check(frame_text(frame))  # every frame is a declared one
                frames.append(json.loads(frame_text(frame)))
        return frames

    def check(self, *, sends_frames: bool = True) -> None:
        cases = []
        for viewer, before, after in zip(self.viewers, self.before, self.after, strict=True):
            frames = self.received(viewer)
            self._check_privacy(viewer, frames)
            cases.append(
                {
                    "before": before,
                    "frames": frames,
                    "after": after,
                    "playerId": None if viewer is None else viewer.pk,
                }
            )
        if sends_frames:
            assert any(case["frames"] for case in cases), "the change sent no frame"
        answers = replay(cases)
        for viewer, answer in zip(self.viewers, answers, strict=True):
            who = "a watcher" if viewer is None else f"player {viewer.pk}"
            got, want = answer["viaFrames"]["facts"], answer["viaSnapshot"]["facts"]
            assert got == want, f"{who}: snapshot + frames != snapshot after:\n" + "\n".join(
                differences(got, want)
            )
            # Issue #23 part 4: the frames say it all; a snapshot only on a gap or reconnect.
            assert not answer["viaFrames"]["asked"], f"{who}'s page asked for a snapshot"

    def _check_privacy(self, viewer: Player | None, frames: list[dict[str, Any]]) -> None:
        """A private event reaches only the player of its seat; its placeholder carries
        nothing (docs/protocol.md, "Sequence, placeholders and gaps")."""
        for frame in frames:
            if frame.get("type") != "event":
                continue
            if frame["kind"] == "private":
                assert frame["payload"] == {}, f"a placeholder carries {frame['payload']}"
            if frame.get("private"):
                owner = frame["payload"].get("seat")
                assert viewer is not None and owner == self._seat_of(viewer), (
                    f"{'a watcher' if viewer is None else viewer.pk} got seat {owner}'s card"
                )

    def _seat_of(self, viewer: Player) -> int | None:
        for snapshot in (*self.before, *self.after):
            for entry in snapshot.get("seats", []):
                if entry.get("player_id") == viewer.pk:
                    return int(entry["number"])
        return None


def snapshots(table: Table, viewers: Sequence[Player | None]) -> list[dict[str, Any]]:
    found = []
    for viewer in viewers:
        snapshot = table_snapshot(table.pk, viewer)
        assert snapshot is not None
        found.append(json.loads(json.dumps(snapshot)))
    return found


@contextmanager
def frame_proof(
    table: Table,
    viewers: Sequence[Player | None],
    capture: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Proof]:
    """Snapshots before, the frames every change in the block broadcast (after its commit,
    as `capture`, pytest-django's django_capture_on_commit_callbacks, runs them), snapshots
    after."""
    if NODE is None:
        pytest.fail("the proof runs the page's store under Node: node is not installed")
    proof = Proof(table=table, viewers=viewers)
    proof.before = snapshots(table, viewers)

    def record(*, table_id: int, frames: Frames) -> None:
        if table_id == table.pk:
            proof.sent.append(frames)

    monkeypatch.setattr(outbox_module, "broadcast", record)
    monkeypatch.setattr(chat_module, "broadcast", record)
    with capture(execute=True):
        yield proof
    proof.after = snapshots(table, viewers)


def replay(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    run = subprocess.run(
        [str(NODE), str(REPLAY)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    answers: list[dict[str, Any]] = json.loads(run.stdout)
    return answers


def differences(got: Any, want: Any, path: str = "") -> list[str]:
    """Where two JSON values differ, as "path: got != want" lines."""
    if isinstance(got, dict) and isinstance(want, dict):
        return [
            line
            for key in sorted(set(got) | set(want))
            for line in differences(
                got.get(key, "<absent>"), want.get(key, "<absent>"), f"{path}.{key}"
            )
        ]
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        return [
            line
            for i, (g, w) in enumerate(zip(got, want, strict=True))
            for line in differences(g, w, f"{path}[{i}]")
        ]
    return [] if got == want else [f"{path}: {json.dumps(got)} != {json.dumps(want)}"]


__all__ = ["Event", "Proof", "frame_proof"]
