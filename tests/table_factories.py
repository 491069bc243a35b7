"""Tables, seated players and stacked decks for the live-table tests.

Tables are created the way staff create them (a row with stakes); players get money and seats
only through the services, so every chip has a ledger row behind it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from accounts.models import Player
from stud import StudHand
from stud.cards import FULL_DECK, parse_cards
from tables import services
from tables.models import Hand, Table
from tests.factories import PlayerFactory, funded

_counter = iter(range(1, 1_000_000))


def make_table(**overrides: Any) -> Table:
    """A $1/$2 stud table (ante 10c, bring-in 25c, buy-in $20), not raked unless asked."""
    fields: dict[str, Any] = {
        "name": f"Table {next(_counter)}",
        "game": "stud",
        "small_bet": 100,
        "big_bet": 200,
        "ante": 10,
        "bring_in": 25,
        "buy_in": 2000,
        "seats": 8,
        "rake_schedule": None,
        # R-BET-7's time bank is off unless a test asks for it (the room's default is 30 s;
        # tests/tables/test_tables_time_bank.py): a clock that runs out is R-TIME-1 at once.
        "time_bank": 0,
    }
    fields.update(overrides)
    return Table.objects.create(**fields)


def seated_player(
    table: Table,
    *,
    balance: int = 10_000,
    buy_in: int | None = None,
    seat_number: int | None = None,
    **player_fields: Any,
) -> Player:
    """A funded player who took a seat through the service."""
    player = PlayerFactory(**player_fields)
    funded(player, balance)
    result = services.seat_take(
        table_id=table.pk,
        player=player,
        buy_in=table.buy_in if buy_in is None else buy_in,
        seat_number=seat_number,
    )
    assert result.ok, result.reply()
    player.refresh_from_db()
    return player


def stacked_deck(deal: str) -> list[int]:
    """The cards named first, in order, then the rest of the deck."""
    front = parse_cards(deal)
    return front + [card for card in FULL_DECK if card not in front]


def running_hand(table: Table) -> Hand:
    return Hand.objects.get(table=table, ended_at__isnull=True)


def engine_of(hand: Hand) -> StudHand:
    hand.refresh_from_db()
    return StudHand.from_json(hand.state)


def act(table: Table, player: Player, kind: str, amount: int = 0, *, now: datetime | None = None):
    """The player acts at the hand's current seq."""
    hand = running_hand(table)
    return services.hand_act(
        table_id=table.pk,
        player=player,
        expected_seq=hand.seq,
        kind=kind,
        amount=amount,
        now=now,
    )


def passive_action(table: Table, player: Player) -> tuple[str, int]:
    """What a calling station does: check, else call, else bring in."""
    hand = running_hand(table)
    engine = engine_of(hand)
    seat = next(int(s) for s, pid in hand.players.items() if pid == player.pk)
    offers = {offer.kind.value: offer.amount for offer in engine.legal_actions(seat)}
    for kind in ("check", "call", "bring_in"):
        if kind in offers:
            return kind, offers[kind]
    raise AssertionError(f"nothing passive offered: {offers}")


def play_down(table: Table, players_by_seat: dict[int, Player]) -> Hand:
    """Everyone checks or calls until the hand ends; returns the finished hand."""
    hand = running_hand(table)
    for _ in range(200):
        engine = engine_of(hand)
        if engine.is_over or hand.ended_at is not None:
            break
        seat = engine.to_act
        assert seat is not None
        player = players_by_seat[seat]
        kind, amount = passive_action(table, player)
        result = act(table, player, kind, amount)
        assert result.ok, result.reply()
        hand.refresh_from_db()
    hand.refresh_from_db()
    assert hand.ended_at is not None
    return hand
