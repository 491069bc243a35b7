"""Reads about the tables: what clients see (snapshots, the lobby) and what audit_chips sums."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Sum
from django.utils import timezone

from accounts.models import Player
from accounts.selectors import chat_muted_ids
from accounts.services import all_in_protection_remaining
from stud import StudHand, view
from stud.variant import variant_of
from tables.common import ante_awaited, chat_recent, iso, ms_left, ready_seats
from tables.kinds import table_kind
from tables.models import (
    Hand,
    HandEvent,
    HandPlayer,
    PlaySession,
    RakeEntry,
    RakeSchedule,
    Seat,
    Table,
    WaitingListEntry,
)

LAST_HANDS = 5


def room_chip_totals() -> dict[str, int]:
    """The money the room holds outside players' balances, in cents.

    "on_tables": chips in front of seated players (a seat's stack between hands; for a seat
    dealt into a hand in progress, its live stack in the engine state); "in_pots": every chip
    in the middle of hands in progress (antes, bets, earlier streets); "rake": the sum of
    RakeEntry. Tournament tables (`Table.is_tournament`) are left out: their chips are
    tournament chips, not money (what a tournament holds is tournaments.audit's).
    `manage.py audit_chips` adds these to the balances and checks the sum against the money
    put in, at any moment.
    """
    on_tables = 0
    in_pots = 0
    dealt_rows: set[int] = set()
    running = Hand.objects.filter(ended_at__isnull=True, table__is_tournament=False).only(
        "state", "left_seats", "seat_ids"
    )
    for hand in running:
        engine = StudHand.from_json(hand.state)
        # A seat whose player left mid-hand was cashed out then: only chips the engine gave
        # back since are still on the table.
        left = {int(number): chips for number, chips in hand.left_seats.items()}
        on_tables += sum(engine.stacks) - sum(left.values())
        in_pots += engine.pot
        dealt_rows.update(int(row) for row in hand.seat_ids.values())
    # Seats dealt into a running hand are counted by the engine above; any other seat row
    # (between hands, sitting out, or taken during the hand) holds its own stack.
    for row, stack in Seat.objects.filter(table__is_tournament=False).values_list("pk", "stack"):
        if row not in dealt_rows:
            on_tables += stack
    rake = RakeEntry.objects.aggregate(total=Sum("amount"))["total"] or 0
    return {"on_tables": on_tables, "in_pots": in_pots, "rake": rake}


def _live_stacks(table_id: int) -> tuple[Hand | None, StudHand | None]:
    hand = Hand.objects.filter(table_id=table_id, ended_at__isnull=True).order_by("-id").first()
    return hand, None if hand is None else StudHand.from_json(hand.state)


def seats_public(table_id: int) -> list[dict[str, Any]]:
    """Every seat as anyone at the table sees it; stacks are live during a hand."""
    hand, engine = _live_stacks(table_id)
    now = timezone.now()
    seats = []
    for seat in Seat.objects.filter(table_id=table_id).select_related("player").order_by("number"):
        in_hand = hand is not None and hand.seat_is_dealt(seat)
        stack = engine.stack(seat.number) if in_hand and engine is not None else seat.stack
        seats.append(
            {
                "number": seat.number,
                "player_id": seat.player_id,
                "name": seat.player.table_name,
                "stack": stack,
                "sitting_out": seat.sitting_out,
                "connected": seat.present(now),
                "in_hand": in_hand,
            }
        )
    return seats


def waiting_list_public(table_id: int) -> list[dict[str, Any]]:
    now = timezone.now()
    return [
        {
            "player_id": entry.player_id,
            "name": entry.player.table_name,
            "offered_until": iso(entry.offered_until),
            "offer_ms_left": ms_left(entry.offered_until, now),
        }
        for entry in WaitingListEntry.objects.filter(table_id=table_id)
        .select_related("player")
        .order_by("created_at", "id")
    ]


def table_game_public(table: Table) -> dict[str, Any]:
    """The game a table's page and the lobby name (R-MIX-1 on a Triple Stud table: the game
    of the hand in play, or of the next, and the rotation after it): `game`, `game_label`,
    `rotation` (null at a one-game table). The snapshot and the `table_game` frame say it."""
    rotation = None
    if table.triple_stud:
        in_play = Hand.objects.filter(table=table, ended_at__isnull=True).exists()
        rotation = table.rotation(hand_in_play=in_play)
    game = table.game if rotation is None else rotation.current.value
    return {
        "game": game,
        "game_label": variant_of(game).short_name if rotation is None else rotation.label,
        "rotation": None if rotation is None else rotation.to_json(),
    }


def _table_public(table: Table) -> dict[str, Any]:
    named = table_game_public(table)
    return {
        "id": table.pk,
        "name": table.name,
        "game": named["game"],
        "game_label": named["game_label"],
        "triple_stud": table.triple_stud,
        "rotation": named["rotation"],
        "small_bet": table.small_bet,
        "big_bet": table.big_bet,
        "ante": table.ante,
        "bring_in": table.bring_in,
        "seats": table.seats,
        "buy_in": table.buy_in,
        "action_clock": table.action_clock,
        "time_bank": table.time_bank,  # R-BET-7: the seconds each player starts with
        "is_open": table.is_open,
        # A tournament's table: chips, not cents; the page shows the tournament's clock.
        "is_tournament": table.is_tournament,
        "dealer_only_ante": table.dealer_only_ante,  # R-ANTE-3
    }


def last_hands_public(table_id: int) -> list[dict[str, Any]]:
    """The table's last LAST_HANDS finished hands, newest first (the snapshot's and the
    `last_hands` frame's)."""
    finished = Hand.objects.filter(table_id=table_id, ended_at__isnull=False).order_by("-number")
    return [_hand_summary(hand) for hand in finished[:LAST_HANDS]]


def _hand_summary(hand: Hand) -> dict[str, Any]:
    engine = StudHand.from_json(hand.state)
    result = engine.result
    names = {player.seat: player.name for player in engine.players}
    winners = [] if result is None else list(result.winners)
    return {
        "id": hand.pk,
        "number": hand.number,
        "ended_at": iso(hand.ended_at),
        "pot": 0 if result is None else sum(pot.amount for pot in result.pots),
        "rake": 0 if result is None else result.rake,
        "winners": winners,
        # The names they played under: a winner who has left the table is still named.
        "winner_names": [names.get(seat, f"Seat {seat}") for seat in winners],
    }


def _ante_awaited(table: Table, hand: Hand | None) -> list[int]:
    """R-ANTE-1: the seats whose "I'm in" the next hand waits for (by next_hand_at, or, when
    too few others are in to deal without them, with no deadline); none while a hand runs."""
    if hand is not None or not table.is_open or not table_kind(table).asks_im_in:
        return []
    ready = ready_seats(table)
    return ante_awaited(ready) if len(ready) >= 2 else []


def viewer_public(seat: Seat, now: datetime) -> dict[str, Any]:
    """The viewer's own part of the table (the snapshot's `viewer`, the `viewer` frame's),
    from their seat with its player read now (`select_related`): the settings and the
    protections left as they are now, not as the connection's user was when it opened
    (changed in another tab, or spent by a clock since)."""
    player = seat.player
    return {
        "player_id": player.pk,
        "seat": seat.number,
        "auto_ante": player.auto_ante,
        "auto_muck": player.auto_muck,
        "ante_confirmed": seat.ante_confirmed,
        "time_bank_ms": seat.time_bank_ms,  # R-BET-7: what is left of their bank
        "all_in_protection_left": all_in_protection_remaining(player=player, now=now),
    }


def viewer_of(table_id: int, player_id: int, now: datetime) -> dict[str, Any] | None:
    """`viewer_public` of a player seated at the table, read fresh; None without a seat."""
    seat = Seat.objects.filter(table_id=table_id, player_id=player_id).select_related("player")
    found = seat.first()
    return None if found is None else viewer_public(found, now)


def _show_offer(table: Table, viewer_id: int | None, now: datetime) -> dict[str, Any] | None:
    """R-SHOW-3: between hands, the viewer's offer to show the last hand's cards (the
    `show_offer` frame's fields) while they are its uncalled winner and have not shown."""
    if viewer_id is None:
        return None
    last = Hand.objects.filter(table=table).order_by("-number").first()
    if last is None or last.ended_at is None:
        return None
    seat = next((int(n) for n, pid in last.players.items() if pid == viewer_id), None)
    if seat is None or not StudHand.from_json(last.state).may_show(seat):
        return None
    return {
        "hand_id": last.pk,
        "seat": seat,
        "until": iso(table.next_hand_at),
        "ms_left": ms_left(table.next_hand_at, now),
    }


def table_snapshot(
    table_id: int, viewer: Player | None, *, now: datetime | None = None
) -> dict[str, Any] | None:
    """What a client needs to draw the table for `viewer` (None: a spectator), or None when
    there is no such table. Cards per the engine's view() for the viewer's seat. `now`: the
    clock the times left are counted from (tests; default the wall clock)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    now = timezone.now() if now is None else now
    hand, engine = _live_stacks(table_id)
    viewer_id = None if viewer is None or not viewer.is_authenticated else viewer.pk
    seat = (
        None
        if viewer_id is None
        else Seat.objects.filter(table=table, player_id=viewer_id).select_related("player").first()
    )
    viewer_part: dict[str, Any] | None = None
    if seat is not None and viewer is not None:
        viewer_part = viewer_public(seat, now)
    hand_part: dict[str, Any] | None = None
    if hand is not None and engine is not None:
        dealt_seat = None
        if seat is not None and hand.seat_is_dealt(seat):
            dealt_seat = seat.number
        hand_part = {
            "id": hand.pk,
            "number": hand.number,
            "seq": hand.seq,
            "commitment": hand.commitment,
            "action_deadline": iso(hand.action_deadline),
            "ms_left": ms_left(hand.action_deadline, now),
            # R-BET-7: the seat to act on its time bank (the deadline is then the bank's end)
            "time_bank_seat": hand.time_bank_seat,
            "button": hand.button,
            "state": view(engine, dealt_seat),
        }
    return {
        "type": "snapshot",
        "show_offer": None if hand is not None else _show_offer(table, viewer_id, now),
        "table": _table_public(table),
        "seats": seats_public(table_id),
        "viewer": viewer_part,
        "hand": hand_part,
        "next_hand_at": iso(table.next_hand_at),
        "next_hand_ms_left": ms_left(table.next_hand_at, now),
        "awaiting_ante": _ante_awaited(table, hand),
        "waiting_list": waiting_list_public(table_id),
        "last_hands": last_hands_public(table_id),
        "chat": chat_recent(table_id),  # the last messages, so a reload shows them again
        # whose chat this viewer has muted (on their account: every table and device)
        "chat_muted": [] if viewer is None else chat_muted_ids(viewer.pk),
    }


def table_preview(table_id: int) -> dict[str, Any] | None:
    """The lobby's preview of an open table (issue #21): its seats (names, stacks) and, while
    a hand is in play, its street and each seat's up cards, from the public view (what
    anyone watching sees: never a down card, R-HIST-2). None: no such open table."""
    table = Table.objects.filter(pk=table_id, is_open=True).first()
    if table is None:
        return None
    _hand, engine = _live_stacks(table_id)
    public: dict[str, Any] | None = dict(view(engine, None)) if engine is not None else None
    in_hand: dict[int, dict[str, Any]] = (
        {seat["seat"]: seat for seat in public["seats"]} if public else {}
    )
    players = []
    for seat in seats_public(table_id):
        played = in_hand.get(seat["number"]) if seat["in_hand"] else None
        players.append(
            {
                "seat": seat["number"],
                "name": seat["name"],
                "stack": seat["stack"],
                "sitting_out": seat["sitting_out"],
                "folded": bool(played and played["status"] == "folded"),
                "up": list(played["up"]) if played else [],
            }
        )
    return {
        "id": table.pk,
        "name": table.name,
        "game": table.game,
        "small_bet": table.small_bet,
        "big_bet": table.big_bet,
        "seats": table.seats,
        "street": public["street"] if public else None,
        "players": players,
    }


def rake_schedule_for_stakes(small_bet: int, big_bet: int) -> RakeSchedule | None:
    """The seeded schedule covering these stakes (R-RAKE-3: none outside the seeded ranges;
    the ranges are of small bets with the big bet twice the small)."""
    if big_bet != 2 * small_bet:
        return None
    return (
        RakeSchedule.objects.filter(min_small_bet__lte=small_bet, max_small_bet__gte=small_bet)
        .order_by("min_small_bet")
        .first()
    )


LOBBY_WINDOW_SECONDS = 3600


def lobby_rows(now: datetime | None = None) -> list[dict[str, Any]]:
    """The lobby: every open table with seats taken, players waiting, and over the last hour
    the hands dealt (hands per hour) and the average pot (awards plus rake, in cents)."""
    moment = now or timezone.now()
    since = moment - timedelta(seconds=LOBBY_WINDOW_SECONDS)
    pots: dict[int, dict[int, int]] = {}
    for table_id, hand_id, payload in HandEvent.objects.filter(
        hand__ended_at__gte=since, hand__table__is_open=True, kind__in=("pot_awarded", "rake")
    ).values_list("hand__table_id", "hand_id", "payload"):
        amount = payload.get("amount", 0) if isinstance(payload, dict) else 0
        per_table = pots.setdefault(table_id, {})
        per_table[hand_id] = per_table.get(hand_id, 0) + int(amount)
    hands = dict(
        Hand.objects.filter(ended_at__gte=since, table__is_open=True)
        .values("table_id")
        .annotate(n=Count("id"))
        .values_list("table_id", "n")
    )
    seated = dict(
        Seat.objects.values("table_id").annotate(n=Count("id")).values_list("table_id", "n")
    )
    waiting = dict(
        WaitingListEntry.objects.values("table_id")
        .annotate(n=Count("id"))
        .values_list("table_id", "n")
    )
    rows = []
    # Tournament tables are listed by their tournament (the lobby's Tournaments tab).
    cash_tables = Table.objects.filter(is_open=True, is_tournament=False)
    for table in cash_tables.order_by("small_bet", "name"):
        entry = _table_public(table)
        table_pots = pots.get(table.pk, {})
        entry["seated"] = seated.get(table.pk, 0)
        entry["waiting"] = waiting.get(table.pk, 0)
        entry["hands_per_hour"] = hands.get(table.pk, 0)
        entry["average_pot"] = sum(table_pots.values()) // len(table_pots) if table_pots else 0
        rows.append(entry)
    return rows


def hand_replay(hand_id: int, viewer: Player | None) -> dict[str, Any] | None:
    """A finished hand's events as `viewer` may see them, for static/js/replayer.js
    (docs/browser.md): public events plus the viewer's own private ones (R-HIST-2: their
    down cards; shown cards are public events; mucked cards are in no event). None when there
    is no such finished hand."""
    hand = Hand.objects.filter(pk=hand_id, ended_at__isnull=False).select_related("table").first()
    if hand is None:
        return None
    viewer_id = None if viewer is None or not viewer.is_authenticated else viewer.pk
    viewer_seat = next(
        (int(seat) for seat, player_id in hand.players.items() if player_id == viewer_id), None
    )
    events = [
        {"seq": seq, "kind": kind, "payload": payload}
        for seq, kind, payload, visible_to in hand.events.order_by("seq").values_list(
            "seq", "kind", "payload", "visible_to"
        )
        if visible_to is None or visible_to == viewer_seat
    ]
    return {
        "hand_id": hand.pk,
        "number": hand.number,
        "table": _table_public(hand.table),
        "viewer_seat": viewer_seat,
        "events": events,
    }


def client_behind(table_id: int, hand_id: int | None, seq: int) -> bool:
    """Whether a client holding (`hand_id`, `seq`) of this table missed frames of the table's
    last hand: it is in play and the client holds another hand or an older seq, or it ended
    and the client holds it at an older seq (it missed the end). One indexed read (a ping's;
    docs/protocol.md, "Catching up")."""
    last = (
        Hand.objects.filter(table_id=table_id)
        .order_by("-number")
        .values_list("pk", "seq", "ended_at")
        .first()
    )
    if last is None:
        return False
    last_id, last_seq, ended_at = last
    if ended_at is None:
        return hand_id != last_id or seq < last_seq
    return hand_id == last_id and seq < last_seq


@dataclass(frozen=True)
class SessionSummary:
    """A play session so far, as a reality check shows it (issue #26)."""

    started_at: datetime
    minutes_played: int
    hands: int
    net: int
    rake_paid: int


def play_session_summary(session: PlaySession, now: datetime) -> SessionSummary:
    """Time played (whole minutes from the session's first hand to `now`), and over the cash
    hands the player was dealt since then and that have ended: the net result (chips at each
    hand's end less at its start, added up: the rake is already out of it) and the rake paid
    (each hand's share, by the chips put in: stud.rake.rake_paid_shares)."""
    totals = HandPlayer.objects.filter(
        player_id=session.player_id,
        hand__started_at__gte=session.started_at,
        hand__ended_at__lte=now,
        hand__table__is_tournament=False,
        net__isnull=False,
    ).aggregate(hands=Count("pk"), net=Sum("net"), rake=Sum("rake_paid"))
    return SessionSummary(
        started_at=session.started_at,
        minutes_played=max(0, int((now - session.started_at).total_seconds() // 60)),
        hands=totals["hands"] or 0,
        net=totals["net"] or 0,
        rake_paid=totals["rake"] or 0,
    )
