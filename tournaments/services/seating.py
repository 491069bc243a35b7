"""Seats of a tournament: the draw onto tables (R-TOUR-2), eliminations (R-TOUR-7), the
balancing move (R-TOUR-3) and the merge (R-TOUR-4), and the add-on chips put on a seat.

Every function here runs inside a tournament's transaction (tournaments/services/play.py)
that holds the tournament's row and then its open tables' rows, lower id first
(tables.services.tournament_tables.tournament_tables_lock). stud/tournament.py decides;
these record it on the tables and entries.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime

from django.db.models import F

from stud.tournament import (
    Bust,
    LevelSpec,
    balancing_mover,
    finishing_places,
    moves_to_balance,
    seat_draw,
)
from tables.models import Hand, Seat
from tables.services.tournament_tables import (
    TournamentTableLock,
    tournament_seat_place,
    tournament_seat_remove,
    tournament_table_close,
    tournament_table_open,
)
from tournaments import broadcast
from tournaments.models import Tournament, TournamentEntry, TournamentTable
from tournaments.services.entries import add_on_chips_pending

Locks = dict[int, TournamentTableLock]


def table_name(tournament: Tournament, number: int) -> str:
    """Table names are unique in the room: the tournament's id keeps them apart."""
    return f"{tournament.name[:36]} #{tournament.pk} table {number}"


def table_open(
    tournament: Tournament, *, number: int, level: LevelSpec
) -> tuple[TournamentTable, TournamentTableLock]:
    """A new table of the tournament, at `level`'s stakes, locked."""
    lock = tournament_table_open(
        name=table_name(tournament, number),
        game=tournament.game,
        triple_stud=tournament.triple_stud,
        ante=level.ante,
        bring_in=level.bring_in,
        small_bet=level.small_bet,
        big_bet=level.big_bet,
        dealer_only_ante=level.dealer_only_ante,
        action_clock=tournament.action_clock,
        time_bank=tournament.time_bank,
    )
    tournament_table = TournamentTable.objects.create(
        tournament=tournament, table=lock.table, number=number, level=level.number
    )
    return tournament_table, lock


def seats_draw(
    tournament: Tournament,
    *,
    stacks: dict[int, int],
    level: LevelSpec,
    rng: random.Random,
    first_number: int,
    seats_kept: dict[int, Seat] | None = None,
) -> list[tuple[TournamentTable, TournamentTableLock]]:
    """R-TOUR-2 / R-TOUR-4: players (id -> chips) drawn at random onto new tables numbered
    from `first_number`; seat 1 deals first at each. `seats_kept`: the seats they leave
    (a merge), whose time banks go with them. Each player is told where they sit."""
    opened = []
    for offset, draw in enumerate(seat_draw(sorted(stacks), rng)):
        tournament_table, lock = table_open(tournament, number=first_number + offset, level=level)
        for number, player_id in draw.items():
            kept = None if seats_kept is None else seats_kept.get(player_id)
            if kept is not None:
                table_left_record(tournament, player_id=player_id, table_id=kept.table_id)
            tournament_seat_place(
                lock,
                player_id=player_id,
                number=number,
                stack=stacks[player_id],
                time_bank_ms=None if kept is None else kept.time_bank_ms,
                hands_dealt=0 if kept is None else kept.hands_dealt,
            )
            broadcast.tournament_player_moved(player_id, tournament.pk, lock.table.pk, number)
        opened.append((tournament_table, lock))
    return opened


def add_on_chips_seat(locks: Locks) -> None:
    """R-TOUR-1, never mid-hand for the chips to play: add-on chips bought while a player's
    hand was in play go on their seat now that their table is between hands (tmoney's
    entries.add_on_chips_pending), before eliminations and moves are worked out."""
    for lock in locks.values():
        if lock.hand_in_play is None and add_on_chips_pending(table=lock.table):
            lock.outbox.seats_changed = True


@dataclass(frozen=True)
class Elimination:
    entry: TournamentEntry
    seat: Seat
    lock: TournamentTableLock
    hand: Hand
    chips_at_hand_start: int


def hand_start_stacks(hand: Hand) -> dict[int, int]:
    """Seat -> chips when the hand began (the engine's setup of each player dealt in)."""
    return {int(player["seat"]): int(player["stack"]) for player in hand.state["players"]}


def hand_dealer(hand: Hand) -> int:
    """The seat that dealt the hand: the last in the order of the deal (R-ANTE-3)."""
    return int(hand.state["players"][-1]["seat"])


def hands_settle(
    tournament: Tournament, tables: list[TournamentTable], locks: Locks
) -> list[Elimination]:
    """Each table between hands whose last hand is not settled yet: the dealer's deal is
    counted (R-TOUR-6) and the players it left without chips are found. Run again, it finds
    nothing new (`TournamentTable.settled_hand_number`)."""
    busts: list[Elimination] = []
    for tournament_table in tables:
        lock = locks[tournament_table.table_id]
        if lock.hand_in_play is not None:
            continue
        hand = lock.last_hand()
        if hand is None or hand.number <= tournament_table.settled_hand_number:
            continue
        tournament_table.settled_hand_number = hand.number
        tournament_table.save(update_fields=["settled_hand_number"])
        dealer_id = hand.players.get(str(hand_dealer(hand)))
        if dealer_id is not None:
            TournamentEntry.objects.filter(tournament=tournament, player_id=dealer_id).update(
                deals_this_level=F("deals_this_level") + 1
            )
        starts = hand_start_stacks(hand)
        for seat in lock.seats().values():
            if seat.stack > 0 or not hand.seat_is_dealt(seat):
                continue
            entry = TournamentEntry.objects.get(tournament=tournament, player_id=seat.player_id)
            busts.append(Elimination(entry, seat, lock, hand, starts.get(seat.number, 0)))
    return busts


def players_left(tournament: Tournament) -> int:
    return TournamentEntry.objects.filter(tournament=tournament, eliminated_at__isnull=True).count()


def eliminations_record(tournament: Tournament, busts: list[Elimination], *, now: datetime) -> None:
    """R-TOUR-7: the players out of chips, from one table or from both at the same moment,
    finish in order: more chips at the start of the hand places higher; equal chips share
    the best of their places. Their seats go; each is told their place."""
    if not busts:
        return
    # Hands of both tables that ended at the same instant (one sweep timing out both, say)
    # may be settled by two steps: the players the first placed are placed again with these.
    instants = {bust.hand.ended_at for bust in busts}
    earlier = list(
        TournamentEntry.objects.filter(
            tournament=tournament,
            eliminated_at__isnull=False,
            eliminated_in_hand__ended_at__in=instants,
        ).exclude(player_id__in=[bust.entry.player_id for bust in busts])
    )
    places = finishing_places(
        [Bust(bust.entry.player_id, bust.chips_at_hand_start) for bust in busts]
        + [Bust(entry.player_id, entry.chips_at_hand_start) for entry in earlier],
        players_left(tournament) + len(earlier),
    )
    for entry in earlier:
        if entry.place != places[entry.player_id]:
            entry.place = places[entry.player_id]
            entry.save(update_fields=["place"])
            broadcast.tournament_player_eliminated(
                entry.player_id, entry.place, entry.prize, tournament.pk
            )
    for bust in busts:
        entry = bust.entry
        entry.place = places[entry.player_id]
        entry.eliminated_at = now
        entry.eliminated_in_hand = bust.hand
        entry.chips_at_hand_start = bust.chips_at_hand_start
        entry.save(
            update_fields=["place", "eliminated_at", "eliminated_in_hand", "chips_at_hand_start"]
        )
        tournament_seat_remove(bust.lock, seat=bust.seat)
        broadcast.tournament_player_eliminated(
            entry.player_id, entry.place, entry.prize, tournament.pk
        )


def seat_move(
    tournament: Tournament,
    *,
    seat: Seat,
    from_lock: TournamentTableLock,
    to_lock: TournamentTableLock,
    number: int,
) -> Seat:
    """A player moves with their chips, time bank and count of hands (R-TOUR-3)."""
    player_id, stack = seat.player_id, seat.stack
    time_bank_ms, hands_dealt = seat.time_bank_ms, seat.hands_dealt
    tournament_seat_remove(from_lock, seat=seat)
    moved = tournament_seat_place(
        to_lock,
        player_id=player_id,
        number=number,
        stack=stack,
        time_bank_ms=time_bank_ms,
        hands_dealt=hands_dealt,
    )
    table_left_record(tournament, player_id=player_id, table_id=from_lock.table.pk)
    broadcast.tournament_player_moved(player_id, tournament.pk, to_lock.table.pk, number)
    return moved


def table_left_record(tournament: Tournament, *, player_id: int, table_id: int) -> None:
    """The player was moved away from this table (the snapshot tells the pages of it)."""
    entry = TournamentEntry.objects.get(tournament=tournament, player_id=player_id)
    if table_id not in entry.tables_left:
        entry.tables_left = [*entry.tables_left, table_id]
        entry.save(update_fields=["tables_left"])


def last_button(lock: TournamentTableLock) -> int | None:
    hand = lock.last_hand()
    return None if hand is None else hand.button


def empty_seat_for_mover(
    tournament: Tournament, short: TournamentTableLock, rng: random.Random
) -> int:
    """The seat a moved player takes: the most recently eliminated player's seat at the
    shorter table (R-TOUR-3), or a free seat drawn at random when none is left."""
    taken = set(short.seats())
    out = (
        TournamentEntry.objects.filter(tournament=tournament, eliminated_in_hand__table=short.table)
        .select_related("eliminated_in_hand")
        .order_by("-eliminated_at", "-place", "-id")
    )
    for entry in out:
        hand = entry.eliminated_in_hand
        assert hand is not None
        for number, player_id in hand.players.items():
            if int(player_id) == entry.player_id and int(number) not in taken:
                return int(number)
    free = [number for number in range(1, short.table.seats + 1) if number not in taken]
    return rng.choice(free)


def tables_balance(
    tournament: Tournament,
    tables: list[TournamentTable],
    locks: Locks,
    rng: random.Random,
) -> tuple[bool, set[int]]:
    """R-TOUR-3 between hands: while the two tables differ by more than one player, the
    player at the longer table in the same position relative to the button (on the next
    hand at each) as the eliminated player's seat moves to it. The longer table must be
    between hands; if it is not, the shorter one waits (the move comes before the next hand
    at either table). Returns (anything moved, table ids that must wait)."""
    if len(tables) != 2:
        return False, set()
    first, second = (locks[table.table_id] for table in tables)
    counts = {lock.table.pk: len(lock.seats()) for lock in (first, second)}
    moves = moves_to_balance(counts[first.table.pk], counts[second.table.pk])
    if moves == 0:
        return False, set()
    long, short = (
        (first, second)
        if counts[first.table.pk] > counts[second.table.pk]
        else (
            second,
            first,
        )
    )
    if long.hand_in_play is not None:
        return False, {short.table.pk}
    for _ in range(moves):
        long_seats = long.seats()
        empty = empty_seat_for_mover(tournament, short, rng)
        mover = balancing_mover(
            empty_seat=empty,
            short_last_button=last_button(short),
            short_occupied=list(short.seats()),
            long_last_button=last_button(long),
            long_occupied=list(long_seats),
        )
        seat_move(tournament, seat=long_seats[mover], from_lock=long, to_lock=short, number=empty)
    return True, set()


def tables_close(tables: list[TournamentTable], locks: Locks, *, now: datetime) -> None:
    """Every seat of these tables (none with a hand in play) removed, each table closed."""
    for table in tables:
        lock = locks[table.table_id]
        for seat in lock.seats().values():
            tournament_seat_remove(lock, seat=seat)
        tournament_table_close(lock)
        table.closed_at = now
        table.save(update_fields=["closed_at"])


def tables_merge(
    tournament: Tournament,
    tables: list[TournamentTable],
    locks: Locks,
    *,
    level: LevelSpec,
    rng: random.Random,
    now: datetime,
) -> tuple[TournamentTable, TournamentTableLock] | None:
    """R-TOUR-4: the players left fit one table: once every table is between hands, they
    are redrawn onto a new final table (seat 1 deals first) and the old tables close.
    None while a table still plays its hand (the others wait)."""
    if any(locks[table.table_id].hand_in_play is not None for table in tables):
        return None
    seats = {
        seat.player_id: seat for table in tables for seat in locks[table.table_id].seats().values()
    }
    stacks = {player_id: seat.stack for player_id, seat in seats.items()}
    tables_close(tables, locks, now=now)
    number = max(table.number for table in tournament.tables.all()) + 1
    [(final, lock)] = seats_draw(
        tournament, stacks=stacks, level=level, rng=rng, first_number=number, seats_kept=seats
    )
    return final, lock
