"""A finished hand as PokerStars hand-history text (R-HIST-3), which tracking software imports.

The hand is walked again from its start with its own log (``StudHand.start`` then each
recorded action), reading the engine's state between steps, so the text says exactly what the
engine did. The format follows the real files described in
../shared/testdata/pokerstars-stud/FORMAT.md.

Whose down cards appear is the caller's choice (R-HIST-2): ``viewer`` a seat (that player's
own copy: their down cards, and other players' only where shown at showdown), ``None`` (the
public copy), or ``ALL_DOWN_CARDS`` (the staff and emailed copy: every card, mucked hands too).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal
from zoneinfo import ZoneInfo

from stud.actions import Abandon, Action, ActionKind, TimeOut
from stud.cards import Card, cards_text
from stud.hand import StudHand
from stud.result import HandResult, PotResult

ALL_DOWN_CARDS: Final = "all"
Viewer = int | Literal["all"] | None

# The PokerStars format writes US Eastern time ("ET"): the format's zone, not the room's
# (the room's New York day is pokerroom/room_day.py, which the engine does not import).
_EASTERN = ZoneInfo("America/New_York")
_STREET_TITLES = {3: "3rd STREET", 4: "4th STREET", 5: "5th STREET", 6: "6th STREET", 7: "RIVER"}
_FOLDED_ON = {3: "3rd Street", 4: "4th Street", 5: "5th Street", 6: "6th Street", 7: "River"}


def format_amount(amount: int, *, dollars: bool = True) -> str:
    """Cents as PokerStars writes them: ``$0.04``, ``$1``, ``$1.60``; chips as plain numbers."""
    if not dollars:
        return str(amount)
    whole, cents = divmod(amount, 100)
    return f"${whole}" if cents == 0 else f"${whole}.{cents:02d}"


@dataclass(frozen=True)
class TournamentHeading:
    """What a tournament hand's header names (PokerStars: "Tournament #664712833, $2.00+$0.20
    USD 7 Card Stud Limit - Level XXXI (250/500)"): the tournament, its buy-in and fee in
    cents, the level the hand was dealt at, the table's number in the tournament, and the
    players who finished in this hand as (name, place)."""

    tournament_id: int
    buy_in: int
    fee: int
    level: int
    table_number: int = 1
    finished: Sequence[tuple[str, int]] = ()


def roman(number: int) -> str:
    """Level numbers as PokerStars writes them: I, II, ... XXXI."""
    numerals = (
        (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
        (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
    )  # fmt: skip
    text = ""
    for value, numeral in numerals:
        while number >= value:
            text += numeral
            number -= value
    return text


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st..."""
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def format_started_at(started_at: datetime | str) -> str:
    """``2009/11/26 10:08:43 ET`` (US Eastern, the hour without a leading zero)."""
    if isinstance(started_at, str):
        return started_at
    moment = started_at.astimezone(_EASTERN) if started_at.tzinfo else started_at
    return f"{moment:%Y/%m/%d} {moment.hour}:{moment:%M:%S} ET"


def render_pokerstars(
    hand: StudHand,
    *,
    hand_id: int | str,
    table_name: str,
    started_at: datetime | str,
    viewer: Viewer = None,
    max_seats: int = 8,
    dollars: bool = True,
    currency: str = "USD",
    tournament: TournamentHeading | None = None,
) -> str:
    """The finished ``hand`` as PokerStars text: 7 Card Stud, 7 Card Stud Hi/Lo or Razz.

    ``viewer``: whose down cards appear (see the module docstring). ``dollars``: amounts are
    cents written as dollars (cash tables); False writes them as plain chips. ``tournament``:
    a tournament hand's header and table line, chips as plain numbers whatever ``dollars``
    says (tournament chips are never money), and "finished the tournament" lines.
    """
    if hand.result is None:
        raise ValueError("only a finished hand has a history")
    if tournament is not None:
        dollars = False
    writer = _Writer(hand, viewer=viewer, dollars=dollars)
    config = hand.config
    game = config.variant.pokerstars_name
    stakes = f"{writer.amount(config.small_bet)}/{writer.amount(config.big_bet)}"
    if tournament is not None:
        entry = f"{format_amount(tournament.buy_in)}+{format_amount(tournament.fee)}"
        lines = [
            f"PokerStars Hand #{hand_id}: Tournament #{tournament.tournament_id}, {entry}"
            f"{f' {currency}' if currency else ''} {game} Limit - Level "
            f"{roman(tournament.level)} ({stakes}) - {format_started_at(started_at)}",
            f"Table '{tournament.tournament_id} {tournament.table_number}' {max_seats}-max",
        ]
    else:
        if dollars and currency:
            stakes += f" {currency}"
        lines = [
            f"PokerStars Hand #{hand_id}:  {game} Limit ({stakes}) - "
            f"{format_started_at(started_at)}",
            f"Table '{table_name}' {max_seats}-max",
        ]
    for player in sorted(hand.players, key=lambda p: p.seat):
        lines.append(f"Seat {player.seat}: {player.name} ({writer.amount(player.stack)} in chips)")
    lines.extend(writer.play())
    lines.extend(writer.showdown())
    if tournament is not None:
        lines.extend(
            f"{name} finished the tournament in {ordinal(place)} place"
            for name, place in tournament.finished
        )
    lines.extend(writer.summary())
    return "\n".join(lines) + "\n"


def _capped(hand: StudHand) -> bool:
    """No more raises this round: R-BET-3's cap, or R-BET-4's heads-up limit."""
    if hand.capped:
        return True
    active = sum(hand.status_of(seat) == "active" for seat in hand.seats)
    limit = hand.config.max_raises if active >= 3 else hand.config.heads_up_raises
    return limit is not None and hand.raise_count >= 1 + limit


class _Writer:
    def __init__(self, hand: StudHand, *, viewer: Viewer, dollars: bool) -> None:
        self.final = hand
        assert hand.result is not None
        self.result: HandResult = hand.result
        self.viewer = viewer
        self.dollars = dollars
        self.names = {player.seat: player.name for player in hand.players}
        self.variant = hand.config.variant
        self.folded_on: dict[int, int] = {}
        self.bet_on_third: set[int] = set()  # put chips in beyond the ante on 3rd street
        self.capped_streets: set[int] = set()

    def amount(self, amount: int) -> str:
        return format_amount(amount, dollars=self.dollars)

    def sees_down_cards(self, seat: int) -> bool:
        return self.viewer == ALL_DOWN_CARDS or self.viewer == seat

    # --- the streets ------------------------------------------------------------------

    def play(self) -> list[str]:
        final = self.final
        hand, _ = StudHand.start(
            final.config,
            final.players,
            final.deck,
            final.button,
            reshuffle_seed=final.reshuffle_seed,
        )
        lines: list[str] = []
        for player in hand.players:
            put_in = player.stack - hand.stack(player.seat)
            if put_in:
                all_in = " and is all-in" if hand.stack(player.seat) == 0 else ""
                lines.append(f"{player.name}: posts the ante {self.amount(put_in)}{all_in}")
        street = 3
        lines.append("*** 3rd STREET ***")
        lines.extend(self.dealt(hand, 3))
        returned = len(hand.returned)
        for record in final.log:
            before = hand
            if isinstance(record, Action):
                hand, _ = hand.apply(record)
            elif isinstance(record, TimeOut):
                lines.append(f"{self.names[record.seat]} has timed out")
                hand, _ = hand.time_out(record.seat, record.protected)
            elif isinstance(record, Abandon):
                lines.append(f"{self.names[record.seat]} leaves the table")
                if hand.bring_in_due and hand.to_act == record.seat:
                    posted = hand.legal_actions(record.seat)[0].for_seat(record.seat)
                    lines.extend(self.action_lines(hand, hand, posted))
                hand, _ = hand.abandon(record.seat)
                lines.extend(self.action_lines(before, hand, Action(record.seat, ActionKind.FOLD)))
            else:
                continue  # a show after the hand (R-SHOW-3): written after the collections
            if not isinstance(record, Abandon):
                lines.extend(self.action_lines(before, hand, record))
            for seat, back in hand.returned[returned:]:
                lines.append(f"Uncalled bet ({self.amount(back)}) returned to {self.names[seat]}")
            returned = len(hand.returned)
            while street < hand.street:
                street += 1
                title = f"*** {_STREET_TITLES[street]} ***"
                if street == 7 and hand.community_card is not None:
                    title += f" [{cards_text([hand.community_card])}]"
                lines.append(title)
                lines.extend(self.dealt(hand, street))
                if street == 4 and hand.pair_option:
                    lines.append("Pair on board - a double bet is allowed")
        return lines

    def dealt(self, hand: StudHand, street: int) -> list[str]:
        """The street's "Dealt to" lines, sliced to what was dealt by then (an all-in run-out
        deals several streets at once)."""
        lines = []
        for seat in hand.seats:
            if hand.status_of(seat) == "folded":
                continue
            name = self.names[seat]
            up = hand.up_cards(seat)[: min(street, 6) - 2]
            down = hand.down_cards(seat)
            if street == 7 and len(down) < 3:
                continue  # a shared river card: nothing of their own
            if self.sees_down_cards(seat):
                cards = down[:2] + up + (down[2:3] if street == 7 else ())
                if street == 3:
                    lines.append(f"Dealt to {name} [{cards_text(cards)}]")
                else:
                    old, new = cards_text(cards[:-1]), cards_text(cards[-1:])
                    lines.append(f"Dealt to {name} [{old}] [{new}]")
            elif street == 3:
                lines.append(f"Dealt to {name} [{cards_text(up)}]")
            elif street < 7:
                lines.append(f"Dealt to {name} [{cards_text(up[:-1])}] [{cards_text(up[-1:])}]")
        return lines

    def action_lines(
        self, before: StudHand, after: StudHand, record: Action | TimeOut
    ) -> list[str]:
        """The line for one step, worked out from the hand just before it."""
        seat = record.seat
        name = self.names[seat]
        street = before.street
        bet = before.bet(seat)
        stack = before.stack(seat)
        current = before.current_bet
        if isinstance(record, Action):
            kind = record.kind
        else:
            offered = {offer.kind: offer for offer in before.legal_actions(seat)}
            if ActionKind.CHECK in offered:
                kind = ActionKind.CHECK
            elif ActionKind.BRING_IN in offered:
                kind = ActionKind.BRING_IN
                record = offered[ActionKind.BRING_IN].for_seat(seat)
            elif after.status_of(seat) == "folded":
                kind = ActionKind.FOLD
            else:
                return []  # all-in protection (R-TIME-1): no chips move, nothing to print
        if kind is ActionKind.FOLD:
            self.folded_on[seat] = street
            return [f"{name}: folds"]
        if kind is ActionKind.CHECK:
            return [f"{name}: checks"]
        if kind is ActionKind.CALL:
            to = min(current, bet + stack)
        else:
            to = record.amount if isinstance(record, Action) else 0
        put_in = to - bet
        if street == 3:
            self.bet_on_third.add(seat)
        all_in = " and is all-in" if put_in >= stack else ""
        if kind is ActionKind.BRING_IN:
            lines = [f"{name}: brings in for {self.amount(to)}{all_in}"]
        elif kind is ActionKind.CALL:
            lines = [f"{name}: calls {self.amount(put_in)}{all_in}"]
        elif current == 0:
            lines = [f"{name}: bets {self.amount(to)}{all_in}"]
        else:
            lines = [f"{name}: raises {self.amount(to - current)} to {self.amount(to)}{all_in}"]
        if after.street == street and street not in self.capped_streets and _capped(after):
            self.capped_streets.add(street)
            lines.append("Betting is capped")
        return lines

    # --- showdown and summary --------------------------------------------------------

    def own_cards(self, seat: int) -> tuple[Card, ...]:
        return self.final.cards(seat)

    def full_cards(self, seat: int) -> list[Card]:
        community = self.final.community_card
        own = list(self.own_cards(seat))
        return own if community is None else [*own, community]

    def describe(self, seat: int) -> str:
        return self.variant.describe_pokerstars(self.full_cards(seat))

    def pot_names(self) -> list[str]:
        pots = self.result.pots
        if len(pots) == 1:
            return ["pot"]
        if len(pots) == 2:
            return ["main pot", "side pot"]
        return ["main pot", *(f"side pot-{n}" for n in range(1, len(pots)))]

    def collected_lines(self) -> list[str]:
        lines = []
        names = self.pot_names()
        ordered: list[tuple[str, PotResult]] = list(zip(names, self.result.pots, strict=True))
        for pot_name, pot in reversed(ordered):  # PokerStars settles the last side pot first
            awards = sorted(pot.awards, key=lambda award: award.half == "low")
            for award in awards:
                lines.append(
                    f"{self.names[award.seat]} collected {self.amount(award.amount)} "
                    f"from {pot_name}"
                )
        return lines

    def showdown(self) -> list[str]:
        result = self.result
        if not result.showdown:
            # R-SHOW-3: the uncalled winner may show, after collecting, as PokerStars writes it
            shows = [
                f"{self.names[seat]}: shows [{cards_text(cards)}] ({self.describe(seat)})"
                for seat, cards in self.final.shown_by_choice
            ]
            return self.collected_lines() + shows
        lines = ["*** SHOW DOWN ***"]
        shown = dict(result.shown)
        for seat in result.show_order:
            if seat in shown:
                cards = cards_text(self.own_cards(seat))
                lines.append(f"{self.names[seat]}: shows [{cards}] ({self.describe(seat)})")
            else:
                lines.append(f"{self.names[seat]}: mucks hand")
        lines.extend(self.collected_lines())
        if self.variant.has_low_half and not any(pot.low_winners for pot in result.pots):
            lines.append("No low hand qualified")
        return lines

    def summary(self) -> list[str]:
        result = self.result
        total = sum(pot.amount for pot in result.pots)
        pots = ""
        if len(result.pots) > 1:
            names = ["Main pot", *(("Side pot",) if len(result.pots) == 2 else ())]
            if len(result.pots) > 2:
                names += [f"Side pot-{n}" for n in range(1, len(result.pots))]
            pots = "".join(
                f" {name} {self.amount(pot.amount - pot.rake)}."
                for name, pot in zip(names, result.pots, strict=True)
            )
        lines = [
            "*** SUMMARY ***",
            f"Total pot {self.amount(total)}{pots} | Rake {self.amount(result.rake)}",
        ]
        if self.final.community_card is not None:
            lines.append(f"Board [{cards_text([self.final.community_card])}]")
        shown = dict(result.shown)
        mucked = dict(result.mucked)
        for player in sorted(self.final.players, key=lambda p: p.seat):
            seat = player.seat
            head = f"Seat {seat}: {player.name}"
            won = result.won(seat)
            if seat in self.folded_on:
                street = self.folded_on[seat]
                didnt_bet = " (didn't bet)" if street == 3 and seat not in self.bet_on_third else ""
                lines.append(f"{head} folded on the {_FOLDED_ON[street]}{didnt_bet}")
            elif seat in shown:
                cards = cards_text(self.own_cards(seat))
                outcome = f"won ({self.amount(won)})" if won else "lost"
                lines.append(f"{head} showed [{cards}] and {outcome} with {self.describe(seat)}")
            elif seat in mucked:
                if self.sees_down_cards(seat):
                    lines.append(f"{head} mucked [{cards_text(self.own_cards(seat))}]")
                else:
                    lines.append(f"{head} mucked hand")
            elif won:
                lines.append(f"{head} collected ({self.amount(won)})")
            else:
                lines.append(f"{head} lost")
        return lines
