"""Collects what a service broadcasts and sends it once the transaction commits."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from stud import StudHand
from stud.strength import hand_strength
from tables.models import Hand, HandEvent, Table
from tables.services.broadcast import broadcast
from tables.services.results import Frames, Status, TableResult

logger = logging.getLogger(__name__)

# Events that give players cards: after a batch with one, each learns what they now hold.
DEALING_KINDS = frozenset({"hand_start", "down_cards", "cards_dealt", "community_card"})


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def ms_left(moment: datetime | None, now: datetime) -> int | None:
    """Milliseconds from `now` to `moment` (never below 0): sent beside each deadline, so a
    client counts down on its own monotonic clock and a skewed wall clock does not matter."""
    if moment is None:
        return None
    return max(0, round((moment - now).total_seconds() * 1000))


def on_commit_logged(job: Callable[[], None], *, what: str) -> None:
    """Run `job` once the transaction commits; whatever it raises is logged, never raised.

    The change is committed by then, so its caller is answered that it was applied whatever
    happens next (issue #11: with Redis down, queueing a task raised into the consumer, which
    answered a committed action as "the room could not do that"). What is lost is repaired
    without it: a broadcast by seq + snapshot, an action clock or a hand start by the beat's
    sweep of the deadlines in the database (docs/operations.md, "Outages")."""
    transaction.on_commit(lambda: run_logged(job, what=what))


def run_logged(job: Callable[[], None], *, what: str) -> None:
    try:
        job()
    except Exception:
        logger.exception("after commit: %s failed (the change stands; the sweep repairs)", what)


def hand_turn_unsent_mark(table_id: int) -> None:
    """A broadcast of the table was lost: its hand in play, if any, waits on a player the
    room could not reach (tables.services.flow.hand_turn_clock_restart)."""
    Hand.objects.filter(table_id=table_id, ended_at__isnull=True).update(turn_unsent=True)


class Outbox:
    """Frames and after-commit jobs of one service call on one table."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.table_frames: list[dict[str, Any]] = []
        self.user_frames: dict[int, list[dict[str, Any]]] = {}
        self.seats_changed = False
        self.waiting_changed = False
        self._jobs: list[Callable[[], None]] = []
        self._last_event_frames: list[dict[str, Any]] = []
        self._turn: tuple[int | None, datetime | None, int | None] | None = None
        self._dealt: Hand | None = None  # a hand that dealt cards in this batch

    def table_frame(self, frame: dict[str, Any]) -> None:
        self.table_frames.append(frame)

    def user_frame(self, user_id: int, frame: dict[str, Any]) -> None:
        self.user_frames.setdefault(user_id, []).append(frame)

    def after_commit(self, job: Callable[[], None]) -> None:
        self._jobs.append(job)

    def set_turn(
        self, to_act: int | None, deadline: datetime | None, now: datetime | None = None
    ) -> None:
        """The turn the batch's last frames name; `ms_left` counts from `now` (the action's
        time; the moment the frames are finished when not given)."""
        left = None if now is None else ms_left(deadline, now)
        self._turn = (to_act, deadline, left)

    def events(self, hand: Hand, rows: list[HandEvent]) -> None:
        """One frame per event per audience (placeholders keep every viewer's seq whole)."""
        if not rows:
            return
        last: list[dict[str, Any]] = []
        if any(row.kind in DEALING_KINDS for row in rows):
            self._dealt = hand
        for row in rows:
            base: dict[str, Any] = {
                "type": "event",
                "table_id": self.table.pk,
                "hand_id": hand.pk,
                "hand_number": hand.number,
                "seq": row.seq,
                "to_act": None,
                "action_deadline": None,
                "ms_left": None,
            }
            if row.visible_to is None:
                frame = {**base, "kind": row.kind, "payload": row.payload}
                self.table_frame(frame)
                last = [frame]
                continue
            placeholder = {**base, "kind": "private", "seat": row.visible_to, "payload": {}}
            self.table_frame(placeholder)
            last = [placeholder]
            player_id = hand.players.get(str(row.visible_to))
            if player_id is not None:
                private = {**base, "kind": row.kind, "payload": row.payload, "private": True}
                self.user_frame(int(player_id), private)
                last.append(private)
        self._last_event_frames = last

    def _strength_frames(self, hand: Hand) -> None:
        """Each player still in the hand gets what their cards now make (stud.strength), in
        their own `hand_strength` frame, after the cards of the batch."""
        engine = StudHand.from_json(hand.state)
        if engine.is_over:
            return
        for number, player_id in hand.players.items():
            strength = hand_strength(engine, int(number))
            if strength is None:
                continue
            self.user_frame(
                int(player_id),
                {
                    "type": "hand_strength",
                    "table_id": self.table.pk,
                    "hand_id": hand.pk,
                    "seq": hand.seq,
                    "seat": int(number),
                    **strength.to_json(),
                },
            )

    def result(
        self,
        *,
        status: Status = "applied",
        hand: Hand | None = None,
        message: str = "",
    ) -> TableResult:
        """Finish the frames, register the broadcast and jobs on commit, and answer."""
        from tables.selectors import seats_public, waiting_list_public

        if self._turn is not None:
            to_act, deadline, left = self._turn
            if left is None:
                left = ms_left(deadline, timezone.now())
            for frame in self._last_event_frames:
                frame["to_act"] = to_act
                frame["action_deadline"] = iso(deadline)
                frame["ms_left"] = left
        table_id = self.table.pk
        if self._dealt is not None:
            self._strength_frames(self._dealt)
        if self.seats_changed:
            self.table_frame(
                {"type": "seats", "table_id": table_id, "seats": seats_public(table_id)}
            )
        if self.waiting_changed:
            self.table_frame(
                {
                    "type": "waiting_list",
                    "table_id": table_id,
                    "entries": waiting_list_public(table_id),
                }
            )
        frames = Frames(table=self.table_frames, users=self.user_frames)
        jobs = list(self._jobs)

        def send() -> None:
            if not broadcast(table_id=table_id, frames=frames):
                # The player to act may not have their turn: it is not charged to them.
                run_logged(lambda: hand_turn_unsent_mark(table_id), what="turn_unsent")
            for job in jobs:  # each on its own: one failing does not cancel the others
                run_logged(job, what=f"table {table_id}'s scheduling")

        transaction.on_commit(send)
        return TableResult(
            status=status,
            table_id=table_id,
            message=message,
            hand_id=None if hand is None else hand.pk,
            seq=None if hand is None else hand.seq,
            frames=frames,
        )
