"""Finished hands for the history, rake and API tests, played through the tables services
with a stacked deck (scheduling held still so the test deals), and clients logged in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import pytest

from accounts.models import Player
from stud import StudHand
from tables import services
from tables.models import Hand, Table
from tests.table_factories import (
    act,
    engine_of,
    make_table,
    passive_action,
    running_hand,
    seated_player,
    stacked_deck,
)

# Seats 1, 2, 3 (the first button is seat 3, so seat 1 is dealt first). Alice (seat 1) has
# three aces on 3rd street; bob's 5c brings in; carol folds at her first turn; bob calls
# down and, losing, mucks at showdown (auto-muck).
THREE_HANDED = "As 2c 3h Ad 7d 8h Ah 5c 9s"


def hold_scheduling(monkeypatch: pytest.MonkeyPatch) -> None:
    from tables.services import scheduling

    # The services store deadlines and send nothing (no sweep runs in tests); a deadline near
    # enough for its service to send its own task is held too.
    monkeypatch.setattr(scheduling, "task_send_at", lambda *args, **kwargs: None)


@dataclass
class PlayedTable:
    table: Table
    players: dict[int, Player]  # seat -> player
    hand: Hand

    @property
    def engine(self) -> StudHand:
        return StudHand.from_json(self.hand.state)

    def seat_of(self, player: Player) -> int:
        return next(seat for seat, p in self.players.items() if p.pk == player.pk)


Strategy = Callable[[Table, Player, StudHand, int], tuple[str, int]]


def calling_station(table: Table, player: Player, engine: StudHand, seat: int) -> tuple[str, int]:
    return passive_action(table, player)


def play_hand(
    table: Table,
    players: dict[int, Player],
    deck: str,
    *,
    strategies: dict[int, Strategy] | None = None,
    now: datetime | None = None,
) -> Hand:
    """Deal with `deck` and play to the end: each seat by its strategy (default: check or
    call)."""
    started = services.hand_start(table_id=table.pk, deck=stacked_deck(deck), now=now)
    assert started.ok, started.reply()
    hand = running_hand(table)
    strategies = strategies or {}
    for _ in range(300):
        engine = engine_of(hand)
        if engine.is_over or hand.ended_at is not None:
            break
        seat = engine.to_act
        assert seat is not None
        player = players[seat]
        kind, amount = strategies.get(seat, calling_station)(table, player, engine, seat)
        result = act(table, player, kind, amount, now=now)
        assert result.ok, result.reply()
        hand.refresh_from_db()
    hand.refresh_from_db()
    assert hand.ended_at is not None
    return hand


def fold_when_asked(table: Table, player: Player, engine: StudHand, seat: int) -> tuple[str, int]:
    offered = {offer.kind.value: offer.amount for offer in engine.legal_actions(seat)}
    if "fold" in offered:
        return "fold", 0
    return passive_action(table, player)


def three_handed_hand(
    *, table: Table | None = None, now: datetime | None = None, **table_fields: object
) -> PlayedTable:
    table = table or make_table(**table_fields)
    players = {seat: seated_player(table, seat_number=seat) for seat in (1, 2, 3)}
    hand = play_hand(table, players, THREE_HANDED, strategies={3: fold_when_asked}, now=now)
    return PlayedTable(table, players, hand)


def bettor(table: Table, player: Player, engine: StudHand, seat: int) -> tuple[str, int]:
    """Completes, bets or raises the smallest size whenever offered; else calls or checks."""
    offers = engine.legal_actions(seat)
    for kind in ("complete", "bet", "raise", "call", "check", "bring_in"):
        sizes = [offer.amount for offer in offers if offer.kind.value == kind]
        if sizes:
            return kind, min(sizes)
    raise AssertionError(f"nothing offered to seat {seat}")


def raked_hand(
    *, table: Table, now: datetime | None = None, players: dict[int, Player] | None = None
) -> PlayedTable:
    """Alice (seat 1) bets every street, bob calls down, carol folds: a pot of about $16 at
    $1/$2."""
    players = players or {seat: seated_player(table, seat_number=seat) for seat in (1, 2, 3)}
    hand = play_hand(
        table, players, THREE_HANDED, strategies={1: bettor, 3: fold_when_asked}, now=now
    )
    return PlayedTable(table, players, hand)
