"""Collects what a service broadcasts and sends it once the transaction commits."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from stud import StudHand
from stud.strength import hand_strength
from tables.common import iso, ms_left
from tables.models import Hand, HandEvent, Table
from tables.realtime.frames import (
    UNSET,
    Event,
    Frame,
    HandStrength,
    LastHands,
    RotationState,
    Seats,
    TableGame,
    Viewer,
    ViewerState,
    WaitingList,
)
from tables.selectors import (
    last_hands_public,
    seats_public,
    table_game_public,
    viewer_of,
    waiting_list_public,
)
from tables.services.broadcast import broadcast
from tables.services.results import Frames, Status, TableResult

logger = logging.getLogger(__name__)

# Events that give players cards: after a batch with one, each learns what they now hold.
DEALING_KINDS = frozenset({"hand_start", "down_cards", "cards_dealt", "community_card"})
# Events after which a Triple Stud table's rotation reads otherwise (R-MIX-1): "now Stud"
# once a hand is dealt, the next hand's game once it ends.
ROTATION_KINDS = frozenset({"hand_start", "hand_end"})


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


def _delivered(table_id: int, frames: Frames) -> bool:
    """Whether the broadcast reached the channel layer. It logs its own failures and answers
    False; anything it raises all the same is a lost broadcast too, never an exception out of
    the commit (the change stands: an action applied is never answered as refused)."""
    try:
        return broadcast(table_id=table_id, frames=frames)
    except Exception:
        logger.exception("broadcast to table %s raised (the frames count as lost)", table_id)
        return False


@dataclass(frozen=True)
class _EventDraft:
    """An event frame waiting for the batch's turn: the outbox builds it once, when the
    change is finished (`Outbox.result`), with the turn if it is the batch's last event, so
    a frame is never edited after it is built."""

    table_id: int
    hand_id: int
    hand_number: int
    row: HandEvent
    audience: str  # "public" | "placeholder" | "private"

    def build(self, turn: tuple[int | None, str | None, int | None] | None) -> Event:
        to_act, deadline, left = (None, None, None) if turn is None else turn
        row = self.row
        if self.audience == "placeholder":
            return Event(
                table_id=self.table_id,
                hand_id=self.hand_id,
                hand_number=self.hand_number,
                seq=row.seq,
                kind="private",
                payload={},
                to_act=to_act,
                action_deadline=deadline,
                ms_left=left,
                seat=row.visible_to if row.visible_to is not None else UNSET,
            )
        return Event(
            table_id=self.table_id,
            hand_id=self.hand_id,
            hand_number=self.hand_number,
            seq=row.seq,
            kind=row.kind,
            payload=row.payload,
            to_act=to_act,
            action_deadline=deadline,
            ms_left=left,
            private=True if self.audience == "private" else UNSET,
        )


Pending = Frame | _EventDraft


def hand_turn_unsent_mark(table_id: int) -> None:
    """A broadcast of the table was lost: its hand in play, if any, waits on a player the
    room could not reach (tables.services.flow.hand_turn_clock_restart)."""
    Hand.objects.filter(table_id=table_id, ended_at__isnull=True).update(turn_unsent=True)


class Outbox:
    """Frames and after-commit jobs of one service call on one table: it collects the frames
    the services build (tables/realtime/frames.py) and sends them after the commit; it never
    edits one. It also keeps the hand's events recorded `with_turn` until they are written
    (tables.services.flow.hand_turn_save)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.table_frames: list[Pending] = []
        self.user_frames: dict[int, list[Pending]] = {}
        self.seats_changed = False
        self.waiting_changed = False
        self.last_hands_changed = False  # a hand ended: its `last_hands` frame goes out
        # players whose own part of the table changed: each gets a `viewer` frame
        self.viewers_changed: set[int] = set()
        # a hand's events recorded `with_turn`, by hand id, until they are written
        self.events_unwritten: dict[int, list[HandEvent]] = {}
        self._jobs: list[Callable[[], None]] = []
        self._last_batch: list[_EventDraft] = []
        self._turn: tuple[int | None, datetime | None, int | None] | None = None
        self._dealt: Hand | None = None  # a hand that dealt cards in this batch
        self._rotation_moved = False  # a hand began or ended at a Triple Stud table

    def table_frame(self, frame: Frame) -> None:
        self.table_frames.append(frame)

    def user_frame(self, user_id: int, frame: Frame) -> None:
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
        last: list[_EventDraft] = []
        if any(row.kind in DEALING_KINDS for row in rows):
            self._dealt = hand
        if self.table.triple_stud and any(row.kind in ROTATION_KINDS for row in rows):
            self._rotation_moved = True
        table_id = self.table.pk
        for row in rows:
            if row.visible_to is None:
                public = _EventDraft(table_id, hand.pk, hand.number, row, "public")
                self.table_frames.append(public)
                last = [public]
                continue
            placeholder = _EventDraft(table_id, hand.pk, hand.number, row, "placeholder")
            self.table_frames.append(placeholder)
            last = [placeholder]
            player_id = hand.players.get(str(row.visible_to))
            if player_id is not None:
                private = _EventDraft(table_id, hand.pk, hand.number, row, "private")
                self.user_frames.setdefault(int(player_id), []).append(private)
                last.append(private)
        self._last_batch = last

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
                HandStrength(
                    table_id=self.table.pk,
                    hand_id=hand.pk,
                    seq=hand.seq,
                    seat=int(number),
                    high=strength.high,
                    low=strength.low,
                ),
            )

    def _built(self, pending: list[Pending]) -> list[Frame]:
        turn = None
        if self._turn is not None:
            to_act, deadline, left = self._turn
            if left is None:
                left = ms_left(deadline, timezone.now())
            turn = (to_act, iso(deadline), left)
        last = self._last_batch
        return [
            item.build(turn if any(item is draft for draft in last) else None)
            if isinstance(item, _EventDraft)
            else item
            for item in pending
        ]

    def _table_game_frame(self) -> TableGame:
        named = table_game_public(self.table)
        rotation = named["rotation"]
        return TableGame(
            table_id=self.table.pk,
            game=named["game"],
            game_label=named["game_label"],
            rotation=None if rotation is None else RotationState(**rotation),
        )

    def result(
        self,
        *,
        status: Status = "applied",
        hand: Hand | None = None,
        message: str = "",
    ) -> TableResult:
        """Build the frames, register the broadcast and jobs on commit, and answer."""
        table_id = self.table.pk
        if self._dealt is not None:
            self._strength_frames(self._dealt)
        if self.seats_changed:
            self.table_frame(Seats(table_id=table_id, seats=seats_public(table_id)))
        if self.last_hands_changed:
            self.table_frame(LastHands(table_id=table_id, last_hands=last_hands_public(table_id)))
        if self.waiting_changed:
            self.table_frame(WaitingList(table_id=table_id, entries=waiting_list_public(table_id)))
        if self._rotation_moved:
            self.table_frame(self._table_game_frame())
        if self.viewers_changed:
            now = timezone.now()
            for player_id in sorted(self.viewers_changed):
                part = viewer_of(table_id, player_id, now)
                if part is not None:
                    self.user_frame(
                        player_id, Viewer(table_id=table_id, viewer=ViewerState(**part))
                    )
        frames = Frames(
            table=self._built(self.table_frames),
            users={user: self._built(pending) for user, pending in self.user_frames.items()},
        )
        jobs = list(self._jobs)

        def send() -> None:
            if not _delivered(table_id, frames):
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
