"""The rules of a stud tournament (seed 004, R-TOUR-1..8) as plain Python: the structure of
levels as data, the seat draw, who moves when the tables are balanced, when they merge, the
order of eliminations and the end of an equal-deals level. No Django: the room's
tournaments app (tournaments/services/) records what these decide.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

# R-TOUR-2 / R-TOUR-4: more than this many players start on two tables; at this many left
# the two tables merge into one.
ONE_TABLE_PLAYERS = 7
TABLE_SEATS = 8


@dataclass(frozen=True, slots=True)
class LevelSpec:
    """One level of a structure (R-TOUR-8): tournament chips, minutes, and a break after it
    (`break_minutes`, 0: none). `dealer_only_ante`: R-ANTE-3; `equal_deals`: R-TOUR-6."""

    number: int
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    minutes: int = 15
    dealer_only_ante: bool = False
    equal_deals: bool = False
    break_minutes: int = 0


def _structure(minutes: int, break_minutes: int) -> tuple[LevelSpec, ...]:
    rows = (
        # number, ante, bring-in, small, big, dealer only, equal deals, break after
        (1, 5, 5, 10, 20, False, False, False),
        (2, 5, 10, 20, 40, False, False, False),
        (3, 25, 10, 25, 50, True, True, False),
        (4, 10, 15, 30, 60, False, False, False),
        (5, 10, 25, 50, 100, False, False, True),
        (6, 15, 25, 60, 120, False, False, False),
        (7, 25, 50, 100, 200, False, False, False),
        (8, 25, 50, 150, 300, False, False, False),
        (9, 50, 75, 200, 400, False, False, True),
        (10, 50, 100, 300, 600, False, False, False),
        (11, 75, 150, 400, 800, False, False, False),
        (12, 100, 200, 600, 1200, False, False, False),
    )
    return tuple(
        LevelSpec(
            number=number,
            ante=ante,
            bring_in=bring_in,
            small_bet=small,
            big_bet=big,
            minutes=minutes,
            dealer_only_ante=dealer_only,
            equal_deals=equal_deals,
            break_minutes=break_minutes if has_break else 0,
        )
        for number, ante, bring_in, small, big, dealer_only, equal_deals, has_break in rows
    )


# R-TOUR-8: the room's default (15-minute levels, 10-minute breaks after levels 5 and 9) and
# the turbo preset (the same levels at 3 minutes, 1-minute breaks).
DEFAULT_STRUCTURE: tuple[LevelSpec, ...] = _structure(15, 10)
TURBO_STRUCTURE: tuple[LevelSpec, ...] = _structure(3, 1)
STRUCTURES: dict[str, tuple[LevelSpec, ...]] = {
    "default": DEFAULT_STRUCTURE,
    "turbo": TURBO_STRUCTURE,
}


def level_spec(levels: Sequence[LevelSpec], number: int) -> LevelSpec:
    """Level `number` of a structure; past its last level each level doubles the ante,
    bring-in and bets of the one before (R-TOUR-8), with the last level's minutes, no break,
    every player anteing."""
    if not levels:
        raise ValueError("a structure needs at least one level")
    if number < 1:
        raise ValueError("levels are numbered from 1")
    ordered = sorted(levels, key=lambda level: level.number)
    for level in ordered:
        if level.number == number:
            return level
    last = ordered[-1]
    if number < last.number:
        raise ValueError(f"the structure has no level {number}")
    factor = 2 ** (number - last.number)
    return replace(
        last,
        number=number,
        ante=last.ante * factor,
        bring_in=last.bring_in * factor,
        small_bet=last.small_bet * factor,
        big_bet=last.big_bet * factor,
        dealer_only_ante=False,
        equal_deals=False,
        break_minutes=0,
    )


def seat_draw(player_ids: Sequence[int], rng: random.Random) -> list[dict[int, int]]:
    """R-TOUR-2: a random draw. Up to 7 players: one table; more: two, as even as possible
    (the first table takes the odd player). Seats are numbered from 1 at each table, so seat
    1 is always taken and deals first. Returns, per table, seat number -> player id."""
    players = list(player_ids)
    if not 2 <= len(players) <= 2 * TABLE_SEATS:
        raise ValueError(f"a tournament seats 2 to {2 * TABLE_SEATS} players, not {len(players)}")
    rng.shuffle(players)
    if len(players) <= ONE_TABLE_PLAYERS:
        groups = [players]
    else:
        first = (len(players) + 1) // 2
        groups = [players[:first], players[first:]]
    return [{number: player for number, player in enumerate(group, start=1)} for group in groups]


def button_after(last_button: int | None, occupied: Sequence[int]) -> int:
    """R-DEAL-1 as the tables apply it: the button moves to the next occupied seat
    clockwise after the last hand's button; a tournament table's first hand has the button
    at its lowest seat (seat 1 deals first, R-TOUR-2)."""
    seats = sorted(occupied)
    if not seats:
        raise ValueError("nobody is seated")
    if last_button is None:
        return seats[0]
    later = [number for number in seats if number > last_button]
    return later[0] if later else seats[0]


def position_from_button(button: int, seat: int, occupied: Sequence[int]) -> int:
    """Where `seat` sits relative to the button among the occupied seats: 0 the button (the
    dealer), 1 the first to its left, and so on clockwise."""
    seats = sorted(occupied)
    if seat not in seats or button not in seats:
        raise ValueError("both seats must be occupied")
    return (seats.index(seat) - seats.index(button)) % len(seats)


def balancing_mover(
    *,
    empty_seat: int,
    short_last_button: int | None,
    short_occupied: Sequence[int],
    long_last_button: int | None,
    long_occupied: Sequence[int],
) -> int:
    """R-TOUR-3: the seat at the longer table whose player moves to `empty_seat` at the
    shorter table: the player in the same position relative to the button, on the next hand
    at each table, as the eliminated player's seat. The shorter table's next button is
    reckoned with the empty seat taken (the mover takes its obligations, dealing included)."""
    short = sorted({*short_occupied, empty_seat})
    short_button = button_after(short_last_button, short)
    position = position_from_button(short_button, empty_seat, short)
    longer = sorted(long_occupied)
    long_button = button_after(long_last_button, longer)
    start = longer.index(long_button)
    return longer[(start + position) % len(longer)]


def moves_to_balance(first: int, second: int) -> int:
    """R-TOUR-3: how many players move from the longer table to the shorter so that the two
    differ by one at most."""
    return abs(first - second) // 2


def tables_merge(players_left: int, tables: int) -> bool:
    """R-TOUR-4: two tables merge when the players left fit one table (7)."""
    return tables > 1 and players_left <= ONE_TABLE_PLAYERS


@dataclass(frozen=True, slots=True)
class Bust:
    """A player out of chips: who, and their chips when the hand they lost began."""

    player_id: int
    chips_at_hand_start: int


def finishing_places(busts: Sequence[Bust], players_left: int) -> dict[int, int]:
    """R-TOUR-7: players eliminated at the same moment (one hand, or hands of two tables
    ending together) finish in order: more chips at the start of the hand places higher.
    Equal chips tie: they share the best of the places they take (R-TOUR-9 splits those
    places' prizes). `players_left`: players in before these eliminations. Player id -> place."""
    if len(busts) > players_left - 1:
        raise ValueError("at least one player must be left")
    places: dict[int, int] = {}
    worst = players_left
    by_chips = sorted(busts, key=lambda bust: bust.chips_at_hand_start)
    index = 0
    while index < len(by_chips):
        chips = by_chips[index].chips_at_hand_start
        group = [bust for bust in by_chips[index:] if bust.chips_at_hand_start == chips]
        shared = worst - len(group) + 1
        for bust in group:
            places[bust.player_id] = shared
        worst -= len(group)
        index += len(group)
    return places


def equal_deals_level_over(*, deals: Sequence[int], hands_since_timer: int, players: int) -> bool:
    """R-TOUR-6: after its timer has expired, an equal-deals level ends at a table when
    every player there has dealt the same number of hands since it began. A table whose
    players came from another table with other counts may never be equal: the room ends it
    after one more orbit at most (as many hands as players) since the timer expired."""
    if not deals:
        return True
    return len(set(deals)) == 1 or hands_since_timer >= players
