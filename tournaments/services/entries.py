"""Creating tournaments, staff's settings, entries, add-ons, cancellation and the end.

Each public function is one transaction (or, `tournament_finish` and `add_on_chips_pending`,
a step inside the caller's): lock the tournament row, check, write, and announce the change
after commit (`tournaments.broadcast.tournament_changed`). A refusal raises
`TournamentRefused` (tournaments/services/refusals.py) and writes nothing. Money moves only as
ledger lines (tournaments/services/money.py); tournament chips are integers on seats.

Lock order: the tournament row, then its tables (lower id first, through
`tables.services.change`), then players' rows by primary key (the wallet moves).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.limits import PlayLimitRefused
from accounts.models import Player
from accounts.money import cents_format
from stud import StudHand
from stud.payouts import percentages_error, prizes_by_player
from stud.tournament import DEFAULT_STRUCTURE, TURBO_STRUCTURE, LevelSpec
from tables.models import Hand, Seat, Table
from tables.services.change import table_change
from tables.services.tournament_tables import (
    tournament_table_cancel,
    tournament_tables_finish,
    tournament_tables_lock,
)
from tournaments import broadcast
from tournaments.models import (
    IN_PLAY,
    OVER,
    Tournament,
    TournamentEntry,
    TournamentLevel,
    TournamentStaffAction,
    TournamentStatus,
    TournamentTable,
)
from tournaments.selectors import add_on_closed, tournament_structure
from tournaments.services.money import (
    add_on_pay,
    entry_pay,
    entry_refund,
    prize_pool_of,
    prizes_pay,
)
from tournaments.services.refusals import TournamentRefusal, TournamentRefused

# R-TOUR-8's structures by the name staff pick in the admin.
PRESETS: dict[str, tuple[LevelSpec, ...]] = {
    "default": DEFAULT_STRUCTURE,
    "turbo": TURBO_STRUCTURE,
}

# What staff may set (tournament_create, tournament_edit).
SETTING_FIELDS = frozenset(
    {
        "name",
        "game",
        "triple_stud",
        "buy_in",
        "fee",
        "starting_chips",
        "add_on_price",
        "add_on_chips",
        "add_on_until_level",
        "min_players",
        "max_players",
        "starts_at",
        "start_when_registered",
        "action_clock",
        "time_bank",
        "payout_percentages",
        "status",
    }
)
# Players paid these: they cannot change once anyone has registered (refunds give back what
# each paid, and the prize pool is counted from them).
MONEY_FIELDS = frozenset({"buy_in", "fee", "add_on_price"})
# The draw seated players with these: fixed once the tournament has started.
SEATING_FIELDS = frozenset(
    {"game", "triple_stud", "starting_chips", "add_on_chips", "min_players", "max_players"}
)
# The statuses staff set by hand; the others follow from play (start, breaks, pause, end).
STAFF_STATUSES = frozenset({TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING})


def _now(now: datetime | None) -> datetime:
    return timezone.now() if now is None else now


def _over_message(tournament: Tournament) -> str:
    return f"{tournament.name} is {tournament.get_status_display().lower()}: nothing can change."


def _lock(tournament_id: int) -> Tournament:
    """The tournament row, locked (first of the lock order); NOT_FOUND if none."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentRefused(TournamentRefusal.NOT_FOUND, "No such tournament.")
    return tournament


def tournament_changed(tournament: Tournament) -> None:
    """Tell the lobby, the tournament's page and its clock once the transaction commits
    (tournaments.broadcast bumps `seq` then, with the snapshot)."""
    broadcast.tournament_changed(tournament.pk)


def tournament_staff_action_record(
    *, tournament: Tournament, staff: Player | None, action: str, now: datetime, detail: str = ""
) -> TournamentStaffAction:
    """Append one row to the tournament's audit of staff actions (staff None: the room)."""
    return TournamentStaffAction.objects.create(
        tournament=tournament, staff=staff, action=action, detail=detail[:300], at=now
    )


# --- Structure and settings ------------------------------------------------------------------


def structure_preset(preset: str) -> tuple[LevelSpec, ...]:
    """The levels of a preset ("default": R-TOUR-8, "turbo": 3-minute levels)."""
    try:
        return PRESETS[preset]
    except KeyError:
        raise TournamentRefused(
            TournamentRefusal.BAD_SETTINGS,
            f"No structure preset {preset!r}: choose one of {', '.join(PRESETS)}.",
        ) from None


def levels_error(levels: Sequence[LevelSpec]) -> str | None:
    """Why a structure cannot be played, or None."""
    if not levels:
        return "A tournament needs at least one level."
    for expected, level in enumerate(levels, start=1):
        name = f"Level {level.number}"
        if level.number != expected:
            return f"Levels are numbered 1, 2, 3... in order: found {level.number} for {expected}."
        if level.ante < 0 or level.bring_in <= 0 or level.small_bet <= 0:
            return f"{name}: the bring-in and the bets must be more than 0, the ante at least 0."
        if level.big_bet < level.small_bet:
            return f"{name}: the big bet cannot be smaller than the small bet."
        if level.bring_in > level.small_bet:
            return f"{name}: the bring-in cannot be more than the small bet."
        if level.minutes <= 0:
            return f"{name}: a level lasts at least a minute."
        if level.break_minutes < 0:
            return f"{name}: a break cannot be negative."
        if level.dealer_only_ante and level.ante <= 0:
            return f"{name}: a dealer-only ante level needs an ante."
    return None


def settings_error(tournament: Tournament) -> str | None:
    """Why these settings do not hold together (R-TOUR-1, R-TOUR-9), or None."""
    if not tournament.name.strip():
        return "A tournament needs a name."
    if not 2 <= tournament.min_players <= tournament.max_players <= 16:
        return "Players: at least 2, at most 16, and the minimum no more than the maximum."
    when = tournament.start_when_registered
    if when is not None and not tournament.min_players <= when <= tournament.max_players:
        return "'Starts when N registered' must be between the minimum and the maximum players."
    if tournament.starting_chips <= 0:
        return "Players need some starting chips."
    if tournament.add_on_price and not tournament.add_on_chips:
        return "An add-on with a price must buy some chips."
    if tournament.add_on_until_level < 1:
        return "The add-on closes at level 1 or later."
    if tournament.action_clock <= 0:
        return "The action clock is at least a second."
    percentages = tournament.payout_percentages
    if not isinstance(percentages, list):
        return "Payouts are a list of percentages, first place first."
    error = percentages_error(percentages)
    if error is not None:
        return error
    if len(percentages) > tournament.max_players:
        return "More places paid than players."
    if tournament.status not in STAFF_STATUSES and tournament.pk is None:
        return "A new tournament is announced or open for registration."
    return None


def _levels_write(tournament: Tournament, levels: Sequence[LevelSpec]) -> None:
    TournamentLevel.objects.filter(tournament=tournament).delete()
    TournamentLevel.objects.bulk_create(
        [TournamentLevel(tournament=tournament, **asdict(level)) for level in levels]
    )


def _settings_apply(tournament: Tournament, settings: Mapping[str, Any]) -> list[str]:
    """Set the fields that differ; the names of those changed."""
    unknown = set(settings) - SETTING_FIELDS
    if unknown:
        raise TypeError(f"not a tournament setting: {', '.join(sorted(unknown))}")
    changed = []
    for field, value in settings.items():
        if getattr(tournament, field) != value:
            setattr(tournament, field, value)
            changed.append(field)
    return changed


def tournament_create(
    *,
    name: str,
    staff: Player | None,
    now: datetime | None = None,
    preset: str = "default",
    levels: Sequence[LevelSpec] | None = None,
    settings: Mapping[str, Any] | None = None,
) -> Tournament:
    """A new tournament with the levels of `preset` ("default" R-TOUR-8, "turbo"), or
    `levels` of staff's own; `settings` are Tournament fields (SETTING_FIELDS), the model's
    defaults (R-TOUR-1) for the rest. BAD_SETTINGS if they do not hold together."""
    now = _now(now)
    structure = tuple(levels) if levels is not None else structure_preset(preset)
    with transaction.atomic():
        tournament = Tournament(name=name.strip(), created_by=staff)
        _settings_apply(tournament, settings or {})
        error = settings_error(tournament) or levels_error(structure)
        if error is not None:
            raise TournamentRefused(TournamentRefusal.BAD_SETTINGS, error)
        tournament.save()
        _levels_write(tournament, structure)
        what = "custom levels" if levels is not None else f"the {preset} structure"
        tournament_staff_action_record(
            tournament=tournament,
            staff=staff,
            action="create",
            now=now,
            detail=f"{len(structure)} levels, {what}; buy-in {cents_format(tournament.buy_in)}"
            f" + fee {cents_format(tournament.fee)}",
        )
        tournament_changed(tournament)
    return tournament


def tournament_edit(
    *,
    tournament_id: int,
    staff: Player | None,
    now: datetime | None = None,
    settings: Mapping[str, Any] | None = None,
    preset: str | None = None,
    levels: Sequence[LevelSpec] | None = None,
) -> Tournament:
    """Staff change the rules: refused (NOT_EDITABLE) once the first hand is dealt (seed 004:
    rules may change until then), OVER when finished or cancelled. `settings` as in
    tournament_create (only fields that differ count as changes); `preset` or `levels`
    replace the structure. The buy-in, fee and add-on price are fixed once anyone has
    registered, the seating fields once it has started."""
    now = _now(now)
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status in OVER:
            raise TournamentRefused(TournamentRefusal.OVER, _over_message(tournament))
        if tournament.first_hand_at is not None:
            raise TournamentRefused(
                TournamentRefusal.NOT_EDITABLE,
                "The first hand has been dealt: the rules can no longer change.",
            )
        status_before = tournament.status
        changed = _settings_apply(tournament, settings or {})
        if changed and set(changed) & MONEY_FIELDS and tournament.entries.exists():
            raise TournamentRefused(
                TournamentRefusal.BAD_SETTINGS,
                "Players have paid: the buy-in, fee and add-on price cannot change now.",
            )
        started = status_before in IN_PLAY or tournament.started_at is not None
        if started and set(changed) & SEATING_FIELDS:
            raise TournamentRefused(
                TournamentRefusal.BAD_SETTINGS,
                "The seats are drawn: the game, chips and players cannot change now.",
            )
        if "status" in changed and (
            status_before not in STAFF_STATUSES or tournament.status not in STAFF_STATUSES
        ):
            raise TournamentRefused(
                TournamentRefusal.BAD_SETTINGS,
                "Staff may only announce a tournament or open its registration; start, "
                "pause, resume and cancel have their own actions.",
            )
        error = settings_error(tournament)
        structure = tuple(levels) if levels is not None else None
        if structure is None and preset is not None:
            structure = structure_preset(preset)
        if structure is not None:
            error = error or levels_error(structure)
            if structure != tournament_structure(tournament, default=()):
                changed.append("levels")
        if error is not None:
            raise TournamentRefused(TournamentRefusal.BAD_SETTINGS, error)
        if not changed:
            return tournament
        tournament.save()
        if structure is not None and "levels" in changed:
            _levels_write(tournament, structure)
        tournament_staff_action_record(
            tournament=tournament,
            staff=staff,
            action="edit",
            now=now,
            detail="changed " + ", ".join(changed),
        )
        tournament_changed(tournament)
    return tournament


# --- Entries ---------------------------------------------------------------------------------


def _not_open_message(tournament: Tournament) -> str:
    if tournament.status == TournamentStatus.ANNOUNCED:
        return f"Registration for {tournament.name} is not open yet."
    if tournament.status in IN_PLAY:
        return f"{tournament.name} has started: registration is closed."
    return _over_message(tournament)


def _can_pay(*, player_id: int, amount: int, what: str) -> None:
    """Lock the player's row (after the tournament's) and refuse when the wallet is short."""
    balance = Player.objects.select_for_update().values_list("balance", flat=True).get(pk=player_id)
    if balance < amount:
        raise TournamentRefused(
            TournamentRefusal.INSUFFICIENT_BALANCE,
            f"You need {cents_format(amount)} {what}; your balance is {cents_format(balance)}.",
        )


def _staked(pay: Callable[[], None]) -> None:
    """Pay a stake; over a limit the player set (issue #26), refused with that limit named
    and when it resets, the caller's transaction rolling back whatever was taken."""
    try:
        pay()
    except PlayLimitRefused as error:
        raise TournamentRefused(TournamentRefusal.PLAY_LIMIT, str(error)) from None


def tournament_register(
    *, tournament_id: int, player: Player, now: datetime | None = None
) -> TournamentEntry:
    """Enter a player: the buy-in and fee leave the wallet as ledger lines (R-TOUR-1).

    Refused, nothing changed: registration not open (NOT_OPEN: announced, started, over),
    ALREADY_REGISTERED, FULL, INSUFFICIENT_BALANCE."""
    now = _now(now)
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status != TournamentStatus.REGISTERING:
            code = (
                TournamentRefusal.OVER if tournament.status in OVER else TournamentRefusal.NOT_OPEN
            )
            raise TournamentRefused(code, _not_open_message(tournament))
        entries = TournamentEntry.objects.filter(tournament=tournament)
        if entries.filter(player=player).exists():
            raise TournamentRefused(
                TournamentRefusal.ALREADY_REGISTERED,
                f"You are already registered for {tournament.name}.",
            )
        if entries.count() >= tournament.max_players:
            raise TournamentRefused(
                TournamentRefusal.FULL,
                f"{tournament.name} is full ({tournament.max_players} players).",
            )
        cost = tournament.buy_in + tournament.fee
        _can_pay(
            player_id=player.pk,
            amount=cost,
            what=f"to register (buy-in {cents_format(tournament.buy_in)}"
            f" + fee {cents_format(tournament.fee)})",
        )
        entry = TournamentEntry.objects.create(
            tournament=tournament, player=player, registered_at=now
        )
        _staked(lambda: entry_pay(tournament=tournament, player_id=player.pk))
        tournament_changed(tournament)
    return entry


def tournament_unregister(
    *, tournament_id: int, player: Player, now: datetime | None = None
) -> int:
    """Take a player's entry back before the start: every buy-in, add-on and fee they paid
    comes back as ledger lines. Returns the cents given back. Refused: NOT_REGISTERED,
    TOO_LATE (started), OVER."""
    _now(now)
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status in OVER:
            raise TournamentRefused(TournamentRefusal.OVER, _over_message(tournament))
        if tournament.status in IN_PLAY or tournament.started_at is not None:
            raise TournamentRefused(
                TournamentRefusal.TOO_LATE,
                f"{tournament.name} has started: you can no longer unregister.",
            )
        entry = TournamentEntry.objects.filter(tournament=tournament, player=player).first()
        if entry is None:
            raise TournamentRefused(
                TournamentRefusal.NOT_REGISTERED, f"You are not registered for {tournament.name}."
            )
        refunded = entry_refund(tournament=tournament, player_id=player.pk, why="unregistered")
        entry.delete()
        tournament_changed(tournament)
    return refunded


def _tournament_seat(tournament: Tournament, player: Player) -> Seat | None:
    return (
        Seat.objects.filter(
            player=player,
            table__is_tournament=True,
            table__tournament_table__tournament=tournament,
            table__tournament_table__closed_at__isnull=True,
        )
        .select_related("table")
        .first()
    )


def _live_stack(seat: Seat) -> int:
    """The seat's chips now: in the hand in play (engine) if dealt in, else the seat's."""
    hand = (
        Hand.objects.filter(table_id=seat.table_id, ended_at__isnull=True).order_by("-id").first()
    )
    if hand is None or not hand.seat_is_dealt(seat):
        return seat.stack
    return StudHand.from_json(hand.state).stack(seat.number)


def tournament_add_on(
    *, tournament_id: int, player: Player, now: datetime | None = None
) -> TournamentEntry:
    """One add-on per player (R-TOUR-1), before the first hand of `add_on_until_level`: the
    price leaves the wallet as a TOURNAMENT_ADD_ON line. Before the start, the draw seats the
    player with the add-on chips. While it runs, the chips go on the player's seat at once if
    their table is between hands, else when the hand in play ends (never mid-hand: tplay's
    between-hands step calls `add_on_chips_pending`).

    Refused, nothing changed: NO_ADD_ON, NOT_REGISTERED, ALREADY_ADDED_ON, TOO_LATE,
    ELIMINATED, ALL_IN (while all-in in the hand in play), INSUFFICIENT_BALANCE, OVER."""
    now = _now(now)
    seat: Seat | None = None
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status in OVER:
            raise TournamentRefused(TournamentRefusal.OVER, _over_message(tournament))
        if not tournament.add_on_price:
            raise TournamentRefused(
                TournamentRefusal.NO_ADD_ON, f"{tournament.name} has no add-on."
            )
        entry = TournamentEntry.objects.filter(tournament=tournament, player=player).first()
        if entry is None:
            raise TournamentRefused(
                TournamentRefusal.NOT_REGISTERED, f"You are not registered for {tournament.name}."
            )
        if entry.add_on_at is not None:
            raise TournamentRefused(
                TournamentRefusal.ALREADY_ADDED_ON, "You have already bought your add-on."
            )
        if entry.eliminated_at is not None or entry.place is not None:
            raise TournamentRefused(TournamentRefusal.ELIMINATED, "You are out of the tournament.")
        if add_on_closed(tournament):
            raise TournamentRefused(
                TournamentRefusal.TOO_LATE,
                f"The add-on closed when the first hand of level "
                f"{tournament.add_on_until_level} was dealt.",
            )
        started = tournament.started_at is not None or tournament.status in IN_PLAY
        if started:
            seat = _tournament_seat(tournament, player)
            if seat is not None and _live_stack(seat) == 0:
                raise TournamentRefused(
                    TournamentRefusal.ALL_IN,
                    "You have no chips behind: an add-on cannot be bought while all-in.",
                )
        _can_pay(
            player_id=player.pk,
            amount=tournament.add_on_price,
            what=f"for the add-on ({tournament.add_on_chips} chips)",
        )
        _staked(lambda: add_on_pay(tournament=tournament, player_id=player.pk))
        entry.add_on_at = now
        entry.add_on_pending = started
        entry.save(update_fields=["add_on_at", "add_on_pending"])
        tournament_changed(tournament)
    if seat is not None:
        _add_on_chips_now(seat.table_id)
    return entry


def _add_on_chips_now(table_id: int) -> None:
    """Put pending add-on chips on the seats of a table between hands (its own change)."""
    with table_change(table_id) as change:
        if change.hand is None and add_on_chips_pending(table=change.table):
            change.outbox.seats_changed = True


def add_on_chips_pending(*, table: Table) -> list[int]:
    """Put the chips of add-ons bought during the hand on the seats of the players at this
    tournament table; returns their player ids.

    Called inside a table change with `table` locked and no hand in play: by
    `tournament_add_on` when the table is between hands, and by tplay's between-hands step
    (before eliminations and moves are worked out, so the chips count) when a hand ends.
    """
    if not table.is_tournament:
        return []
    entries = TournamentEntry.objects.filter(
        add_on_pending=True, tournament__tables__table=table
    ).select_related("tournament")
    seats = {seat.player_id: seat for seat in Seat.objects.filter(table=table)}
    credited = []
    for entry in entries:
        seat = seats.get(entry.player_id)
        if seat is None:
            continue  # moved away: the chips wait for the next table's hand to end
        seat.stack += entry.tournament.add_on_chips
        seat.save(update_fields=["stack"])
        entry.add_on_pending = False
        entry.save(update_fields=["add_on_pending"])
        credited.append(entry.player_id)
    return credited


def add_on_close_announce(*, table_id: int, hand_id: int) -> bool:
    """R-TOUR-1: the add-on closes when the first hand of `add_on_until_level` is dealt
    (`add_on_closed`). Nothing else changes the tournament then, so its pages would go on
    offering it: when `hand_id` is that level's first hand at its table, they are told (a
    `tournament` frame saying `add_on_open` false). The tables send this for every hand
    dealt at a tournament's table (tournaments.tasks.table_hand_dealt); returns whether it
    was the one."""
    row = TournamentTable.objects.filter(table_id=table_id).select_related("tournament").first()
    if row is None:
        return False
    tournament = row.tournament
    if not tournament.add_on_price or row.level != tournament.add_on_until_level:
        return False
    number = Hand.objects.filter(pk=hand_id, table_id=table_id).values_list("number", flat=True)
    if list(number) != [row.level_from_hand + 1]:
        return False
    tournament_changed(tournament)
    return True


# --- Cancellation and the end -----------------------------------------------------------------


def tournament_cancel(
    *, tournament_id: int, staff: Player | None, now: datetime | None = None, reason: str = ""
) -> int:
    """Cancel (staff; staff None: the room, e.g. fewer than 2 registered at the start,
    R-TOUR-9): every buy-in, fee and add-on paid comes back as ledger lines, and its tables
    close at once: a hand in play is void (it ends with no winner; its chips are tournament
    chips, worth nothing now), every seat is cleared, and the players watching are told
    (`table_closed`, and the tournament's own notice). Returns the cents given back.
    Refused: OVER."""
    now = _now(now)
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status in OVER:
            raise TournamentRefused(TournamentRefusal.OVER, _over_message(tournament))
        _tables_close(tournament, now=now)  # the tables before the players (lock order)
        refunded = 0
        entries = TournamentEntry.objects.filter(tournament=tournament).order_by("player_id")
        for player_id in entries.values_list("player_id", flat=True):
            refunded += entry_refund(tournament=tournament, player_id=player_id, why="cancelled")
        TournamentEntry.objects.filter(tournament=tournament, add_on_pending=True).update(
            add_on_pending=False
        )
        tournament.status = TournamentStatus.CANCELLED
        tournament.finished_at = now
        tournament.level_ends_at = None
        tournament.break_ends_at = None
        tournament.clock_remaining_ms = None
        tournament.save()
        detail = f"refunded {cents_format(refunded)}"
        tournament_staff_action_record(
            tournament=tournament,
            staff=staff,
            action="cancel",
            now=now,
            detail=f"{reason.strip()}; {detail}" if reason.strip() else detail,
        )
        tournament_changed(tournament)
    return refunded


def _tables_close(tournament: Tournament, *, now: datetime) -> None:
    """Close the cancelled tournament's open tables, locked in the lock order: a hand in
    play is void, every seat leaves, the table closes and its viewers are told
    (tables' tournament_table_cancel)."""
    rows = list(TournamentTable.objects.filter(tournament=tournament, closed_at__isnull=True))
    locks = tournament_tables_lock([row.table_id for row in rows])
    for row in rows:
        tournament_table_cancel(locks[row.table_id], now=now)
        row.closed_at = now
        row.save(update_fields=["closed_at"])
    tournament_tables_finish(locks)


def tournament_finish(*, tournament: Tournament, now: datetime) -> None:
    """The last player left wins: place 1, the prizes (R-TOUR-9, stud/payouts.py) as PRIZE
    ledger lines, status FINISHED.

    Called by tplay's between-hands step inside its transaction, with the tournament row
    locked and every other entry's `place` already set (players tied under R-TOUR-7 hold
    the same place, the best of those they share: stud.payouts.prizes_by_player).
    """
    if tournament.status in OVER:
        raise TournamentRefused(TournamentRefusal.OVER, _over_message(tournament))
    entries = list(TournamentEntry.objects.filter(tournament=tournament).order_by("player_id"))
    unplaced = [entry for entry in entries if entry.place is None]
    if len(unplaced) != 1:
        raise ValueError(
            f"tournament {tournament.pk} finishes with one player without a place, "
            f"not {len(unplaced)}"
        )
    unplaced[0].place = 1
    prizes = prizes_by_player(
        pool=prize_pool_of(tournament),
        places={entry.player_id: entry.place or 1 for entry in entries},
        percentages=tournament.payout_percentages,
    )
    for entry in entries:
        entry.prize = prizes[entry.player_id]
    TournamentEntry.objects.bulk_update(entries, ["place", "prize"])
    prizes_pay(tournament=tournament, prizes=prizes)
    tournament.status = TournamentStatus.FINISHED
    tournament.finished_at = now
    tournament.level_ends_at = None
    tournament.break_ends_at = None
    tournament.clock_remaining_ms = None
    tournament.save()
    tournament_changed(tournament)


def break_unregister(sender: Any, *, player_id: int, **kwargs: Any) -> None:
    """accounts.signals.play_break_taken (issue #26): a player on a break or self-excluded
    leaves every tournament not yet started, each buy-in and fee back as ledger lines."""
    player = Player.objects.get(pk=player_id)
    for entry in TournamentEntry.objects.filter(
        player=player, tournament__started_at__isnull=True
    ).exclude(tournament__status__in=OVER):
        try:
            tournament_unregister(tournament_id=entry.tournament_id, player=player)
        except TournamentRefused:
            continue  # started or over meanwhile: its seat is the tournament's
