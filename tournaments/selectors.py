"""Reads about tournaments: the lobby's rows, a tournament's page (structure, prize pool and
payouts by place, standings, tables, the clock), the results. Read-only; the WebSocket frames
(tournaments/broadcast.py) carry exactly these dictionaries."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Count, F, Q
from django.utils import timezone

from stud.payouts import prize_pool, prizes_by_place
from stud.tournament import DEFAULT_STRUCTURE, LevelSpec
from stud.variant import variant_of
from tables.common import iso, ms_left
from tables.models import Hand
from tables.selectors import seats_public
from tournaments.models import (
    IN_PLAY,
    OPEN_FOR_ENTRY,
    OVER,
    Tournament,
    TournamentEntry,
    TournamentLevel,
    TournamentStatus,
    TournamentTable,
)


def level_public(level: TournamentLevel | None) -> dict[str, Any] | None:
    if level is None:
        return None
    return {
        "number": level.number,
        "ante": level.ante,
        "bring_in": level.bring_in,
        "small_bet": level.small_bet,
        "big_bet": level.big_bet,
        "minutes": level.minutes,
        "dealer_only_ante": level.dealer_only_ante,
        "equal_deals": level.equal_deals,
        "break_minutes": level.break_minutes,
    }


def tournament_structure(
    tournament: Tournament, *, default: tuple[LevelSpec, ...] = DEFAULT_STRUCTURE
) -> tuple[LevelSpec, ...]:
    """The tournament's levels (TournamentLevel rows) as LevelSpec values, level 1 first;
    without any, R-TOUR-8's default structure (`default`: what stands for none, e.g. `()` for
    staff's edit, which compares with the rows stored)."""
    rows = list(tournament.levels.order_by("number"))
    if not rows:
        return default
    return tuple(
        LevelSpec(
            number=row.number,
            ante=row.ante,
            bring_in=row.bring_in,
            small_bet=row.small_bet,
            big_bet=row.big_bet,
            minutes=row.minutes,
            dealer_only_ante=row.dealer_only_ante,
            equal_deals=row.equal_deals,
            break_minutes=row.break_minutes,
        )
        for row in rows
    )


def add_on_closed(tournament: Tournament) -> bool:
    """R-TOUR-1: the add-on may be bought until the first hand of level
    `add_on_until_level` is dealt at any of the tournament's tables (a table's
    TournamentTable.level is the level its next hand is dealt at; `level_from_hand` tells
    whether that level's first hand has been dealt there yet)."""
    if tournament.status in OVER:
        return True
    if tournament.first_hand_at is None:
        return False
    if tournament.add_on_until_level <= 1:
        return True
    until = tournament.add_on_until_level
    tables = TournamentTable.objects.filter(tournament=tournament)
    if tables.filter(level__gt=until).exists():
        return True
    # A table's level is raised between hands, before the pause to its next deal (at a
    # break's end, say): the add-on closes when that level's first hand is dealt, not then.
    return Hand.objects.filter(
        table__tournament_table__tournament=tournament,
        table__tournament_table__level=until,
        number__gt=F("table__tournament_table__level_from_hand"),
    ).exists()


def payouts_by_place(tournament: Tournament, entrants: int, pool: int) -> list[dict[str, Any]]:
    """The prize of each paid place, in cents (R-TOUR-9, stud/payouts.py): staff's
    percentages, or the room's default by the number of entrants."""
    prizes = prizes_by_place(
        pool=pool, entrants=entrants, percentages=tuple(tournament.payout_percentages or ())
    )
    return [{"place": place, "prize": prize} for place, prize in enumerate(prizes, start=1)]


def prize_of_place(tournament: Tournament, place: int) -> int:
    """The prize of `place` by R-TOUR-9 for the entries now (cents; 0: not paid). Ties
    (R-TOUR-7) are shared when the tournament ends; this is the place's own share."""
    entries = TournamentEntry.objects.filter(tournament=tournament)
    entrants = entries.count()
    pool = prize_pool(
        buy_in=tournament.buy_in,
        entrants=entrants,
        add_on_price=tournament.add_on_price,
        add_ons=entries.filter(add_on_at__isnull=False).count(),
    )
    for row in payouts_by_place(tournament, entrants, pool):
        if row["place"] == place:
            return int(row["prize"])
    return 0


def clock_public(tournament: Tournament, now: datetime) -> dict[str, Any]:
    """The level clock: what a page counts down (ms from `now`, DESIGN.md "Time")."""
    paused = tournament.status == TournamentStatus.PAUSED
    on_break = tournament.status == TournamentStatus.ON_BREAK or (
        paused and tournament.paused_from == TournamentStatus.ON_BREAK
    )
    level_ms = ms_left(tournament.level_ends_at, now)
    break_ms = ms_left(tournament.break_ends_at, now)
    if paused:
        if on_break:
            break_ms = tournament.clock_remaining_ms
        else:
            level_ms = tournament.clock_remaining_ms
    return {
        "level": tournament.level,
        "level_ends_at": iso(tournament.level_ends_at),
        "level_ms_left": level_ms,
        "break_ends_at": iso(tournament.break_ends_at),
        "break_ms_left": break_ms,
        "on_break": on_break,
        "paused": paused,
        "level_timer_expired": tournament.level_timer_expired,
        "starts_at": iso(tournament.starts_at),
        "starts_ms_left": ms_left(tournament.starts_at, now)
        if tournament.status in OPEN_FOR_ENTRY or tournament.status == TournamentStatus.ANNOUNCED
        else None,
    }


def _tables_public(tournament: Tournament) -> list[dict[str, Any]]:
    tables = []
    rows = TournamentTable.objects.filter(
        tournament=tournament, closed_at__isnull=True
    ).select_related("table")
    in_play = set(
        Hand.objects.filter(
            table__tournament_table__tournament=tournament,
            table__tournament_table__closed_at__isnull=True,
            ended_at__isnull=True,
        ).values_list("table_id", flat=True)
    )
    for row in rows:
        table = row.table
        rotation = table.rotation(hand_in_play=table.pk in in_play)
        seats = [
            {
                "seat": seat["number"],
                "player_id": seat["player_id"],
                "name": seat["name"],
                "stack": seat["stack"],
            }
            for seat in seats_public(row.table_id)
        ]
        tables.append(
            {
                "number": row.number,
                "table_id": row.table_id,
                "level": row.level,
                "seats": seats,
                # R-MIX-1: the game of the hand in play (or of the next), and at a Triple
                # Stud table the rotation, in words ("now Razz · next hand Stud Hi/Lo").
                "game": table.game if rotation is None else rotation.current.value,
                "game_label": (
                    variant_of(table.game).short_name if rotation is None else rotation.words
                ),
                "rotation": None if rotation is None else rotation.to_json(),
            }
        )
    return tables


def _entrant_name(entry: TournamentEntry) -> str:
    return str(entry.player.table_name)


def _final_table_id(tournament: Tournament) -> int | None:
    """The table the winner played the last hand at (None until the tournament is over)."""
    if tournament.status != TournamentStatus.FINISHED:
        return None
    return (
        Hand.objects.filter(table__tournament_table__tournament=tournament)
        .order_by("-id")
        .values_list("table_id", flat=True)
        .first()
    )


def tournament_snapshot(
    tournament: Tournament, now: datetime | None = None, viewer_id: int | None = None
) -> dict[str, Any]:
    """Everything the tournament page, the clock page and a tournament table show."""
    now = now or timezone.now()
    levels = list(TournamentLevel.objects.filter(tournament=tournament).order_by("number"))
    by_number = {level.number: level for level in levels}
    entries = list(
        TournamentEntry.objects.filter(tournament=tournament)
        .select_related("player")
        .annotate(busted_at_table_id=F("eliminated_in_hand__table_id"))
        .order_by("registered_at", "id")
    )
    entrants = len(entries)
    add_ons = sum(1 for entry in entries if entry.add_on_at is not None)
    pool = prize_pool(
        buy_in=tournament.buy_in,
        entrants=entrants,
        add_on_price=tournament.add_on_price,
        add_ons=add_ons,
    )
    tables = _tables_public(tournament)
    seated = {seat["player_id"]: (table, seat) for table in tables for seat in table["seats"]}
    alive = [entry for entry in entries if entry.place is None]
    stacks = {
        entry.player_id: seated[entry.player_id][1]["stack"]
        for entry in alive
        if entry.player_id in seated
    }
    chips_total = sum(stacks.values()) if tournament.status in IN_PLAY else 0
    # Before the start every entrant is "left"; at the end, nobody is.
    players_left = 0 if tournament.status == TournamentStatus.FINISHED else len(alive)
    standings = []
    # The living by chips (most first), then the eliminated by place.
    ranked = sorted(alive, key=lambda entry: (-stacks.get(entry.player_id, 0), entry.id))
    for rank, entry in enumerate(ranked, start=1):
        where = seated.get(entry.player_id)
        standings.append(
            {
                "rank": rank if tournament.status in IN_PLAY else None,
                "player_id": entry.player_id,
                "name": _entrant_name(entry),
                "chips": stacks.get(entry.player_id),
                "table": None if where is None else where[0]["number"],
                "table_id": None if where is None else where[0]["table_id"],
                "seat": None if where is None else where[1]["seat"],
                "place": None,
                "prize": entry.prize,
                "add_on": entry.add_on_at is not None,
                "finished_table_id": None,
                "tables_left": list(entry.tables_left),
            }
        )
    winners_table_id = _final_table_id(tournament)
    for entry in sorted(
        (entry for entry in entries if entry.place is not None), key=lambda e: (e.place, e.id)
    ):
        standings.append(
            {
                "rank": entry.place,
                "player_id": entry.player_id,
                "name": _entrant_name(entry),
                "chips": 0 if entry.place != 1 else None,
                "table": None,
                "table_id": None,
                "seat": None,
                "place": entry.place,
                "prize": entry.prize,
                "add_on": entry.add_on_at is not None,
                "finished_table_id": (
                    entry.busted_at_table_id if entry.place != 1 else winners_table_id
                ),
                "tables_left": list(entry.tables_left),
            }
        )
    current = by_number.get(tournament.level)
    upcoming = by_number.get(tournament.level + 1) if tournament.level else by_number.get(1)
    viewer = None
    if viewer_id is not None:
        mine = next((entry for entry in entries if entry.player_id == viewer_id), None)
        if mine is not None:
            where = seated.get(viewer_id)
            viewer = {
                "registered": True,
                "place": mine.place,
                "prize": mine.prize,
                "add_on": mine.add_on_at is not None,
                "table_id": None if where is None else where[0]["table_id"],
                "table": None if where is None else where[0]["number"],
                "seat": None if where is None else where[1]["seat"],
            }
        else:
            viewer = {
                "registered": False,
                "place": None,
                "prize": 0,
                "add_on": False,
                "table_id": None,
                "table": None,
                "seat": None,
            }
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "game": tournament.game,
        "triple_stud": tournament.triple_stud,
        "game_label": tournament.game_label,
        "game_name": tournament.game_name,
        "status": tournament.status,
        "status_label": TournamentStatus(tournament.status).label,
        "seq": tournament.seq,
        "buy_in": tournament.buy_in,
        "fee": tournament.fee,
        "starting_chips": tournament.starting_chips,
        "add_on_price": tournament.add_on_price,
        "add_on_chips": tournament.add_on_chips,
        "add_on_until_level": tournament.add_on_until_level,
        "add_on_open": _add_on_open(tournament),
        "min_players": tournament.min_players,
        "max_players": tournament.max_players,
        "start_when_registered": tournament.start_when_registered,
        "action_clock": tournament.action_clock,
        "time_bank": tournament.time_bank,
        "entrants": entrants,
        "add_ons": add_ons,
        "players_left": players_left,
        "average_stack": (chips_total // len(stacks)) if stacks else None,
        "largest_stack": max(stacks.values()) if stacks else None,
        "prize_pool": pool,
        "payouts": payouts_by_place(tournament, entrants, pool) if entrants else [],
        "levels": [level_public(level) for level in levels],
        "level": level_public(current),
        "next_level": level_public(upcoming),
        "clock": clock_public(tournament, now),
        "tables": tables,
        "standings": standings,
        "registration_open": tournament.status in OPEN_FOR_ENTRY,
        "over": tournament.status in OVER,
        "viewer": viewer,
    }


def _add_on_open(tournament: Tournament) -> bool:
    """R-TOUR-1: on offer, and before the first hand of level `add_on_until_level` was dealt
    at any table (tmoney's `add_on_closed`, the rule the service checks)."""
    if tournament.add_on_price == 0:
        return False
    return not add_on_closed(tournament) and (
        tournament.status in OPEN_FOR_ENTRY or tournament.status in IN_PLAY
    )


def lobby_row(tournament: Tournament, now: datetime | None = None) -> dict[str, Any]:
    """One row of the lobby's Tournaments tab."""
    now = now or timezone.now()
    entries = TournamentEntry.objects.filter(tournament=tournament).aggregate(
        entrants=Count("id"),
        left=Count("id", filter=Q(place__isnull=True)),
        add_ons=Count("id", filter=Q(add_on_at__isnull=False)),
    )
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "game": tournament.game,
        "triple_stud": tournament.triple_stud,
        "game_label": tournament.game_label,
        "status": tournament.status,
        "status_label": TournamentStatus(tournament.status).label,
        "seq": tournament.seq,
        "buy_in": tournament.buy_in,
        "fee": tournament.fee,
        "starting_chips": tournament.starting_chips,
        "entrants": entries["entrants"],
        "max_players": tournament.max_players,
        "players_left": entries["left"] if tournament.status in IN_PLAY else None,
        "prize_pool": prize_pool(
            buy_in=tournament.buy_in,
            entrants=entries["entrants"],
            add_on_price=tournament.add_on_price,
            add_ons=entries["add_ons"],
        ),
        "level": tournament.level or None,
        "starts_at": iso(tournament.starts_at),
        "starts_ms_left": ms_left(tournament.starts_at, now)
        if tournament.status not in IN_PLAY and tournament.status not in OVER
        else None,
        "started_at": iso(tournament.started_at),
        "start_when_registered": tournament.start_when_registered,
        # Register from the lobby's list (issue #21): open while it registers and has room.
        "registration_open": tournament.status in OPEN_FOR_ENTRY,
        "url": f"/tournaments/{tournament.pk}/",
    }


def lobby_rows(now: datetime | None = None) -> list[dict[str, Any]]:
    """The Tournaments tab: those to come and in play first, then the latest finished."""
    now = now or timezone.now()
    live = Tournament.objects.exclude(status__in=OVER).order_by("starts_at", "id")
    over = Tournament.objects.filter(status__in=OVER).order_by("-finished_at", "-id")[:10]
    return [lobby_row(tournament, now) for tournament in [*live, *over]]


def registered_tournament_ids(player_id: int | None) -> list[int]:
    """The tournaments to come or in play that this player is registered in (the lobby's
    Register / Registered column; None: a visitor, none)."""
    if player_id is None:
        return []
    return list(
        TournamentEntry.objects.filter(player_id=player_id)
        .exclude(tournament__status__in=OVER)
        .values_list("tournament_id", flat=True)
    )
