"""Test support: the shared test data folder and a parser of PokerStars stud hand histories.

The parser reads the text format described in ../shared/testdata/pokerstars-stud/FORMAT.md
(7 Card Stud and 7 Card Stud Hi/Lo, cash and tournament). Amounts with a ``$`` become integer
cents; tournament chips stay as they are. Every line is classified (``LineKind``) so tests can
compare the structure of two histories line-kind by line-kind.
"""

from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from pathlib import Path

import pytest

from stud.actions import ActionKind, Event
from stud.cards import Card, parse_card
from stud.config import Game, GameConfig, SeatSetup
from stud.evaluate import high_rank, low8_rank
from stud.hand import StudHand
from stud.rake import RakeSchedule, RakeTier

TESTDATA = Path(__file__).resolve().parents[2].parent / "shared" / "testdata"


def shared_testdata(*parts: str) -> Path:
    """A path under ../shared/testdata; skip the test when it is absent (fail when CI=true)."""
    path = TESTDATA.joinpath(*parts)
    if not path.exists():
        reason = f"shared test data not found: {path}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return path


def split_hand_files() -> list[Path]:
    """The 58 one-hand files, sorted by name (skips or fails like ``shared_testdata``)."""
    return sorted(shared_testdata("pokerstars-stud", "split").glob("*.txt"))


# --- lines ----------------------------------------------------------------------------------


class LineKind(StrEnum):
    HEADER = "header"
    TABLE = "table"
    SEAT = "seat"
    ANTE = "ante"
    STREET = "street"  # *** 3rd STREET *** .. *** RIVER ***
    SHOW_DOWN = "show_down"
    SUMMARY = "summary"
    DEALT = "dealt"
    BRING_IN = "bring_in"
    BET = "bet"
    RAISE = "raise"
    CALL = "call"
    CHECK = "check"
    FOLD = "fold"
    CAPPED = "capped"
    DOUBLE_BET_ALLOWED = "double_bet_allowed"
    UNCALLED = "uncalled"
    COLLECTED = "collected"
    SHOWS = "shows"
    MUCKS = "mucks"
    DOESNT_SHOW = "doesnt_show"
    NO_LOW = "no_low"
    TOTAL_POT = "total_pot"
    BOARD = "board"
    SEAT_RESULT = "seat_result"
    OTHER = "other"  # joins, leaves, chat, time-outs, tournament finishes


STREET_NUMBERS = {"3rd STREET": 3, "4th STREET": 4, "5th STREET": 5, "6th STREET": 6, "RIVER": 7}
STREET_NAMES = {number: name for name, number in STREET_NUMBERS.items()}

_AMOUNT = r"\$?[\d,]+(?:\.\d+)?"
_HEADER = re.compile(r"^PokerStars (?:Home Game )?(?:Game|Hand) #(?P<hand_id>\d+):")
_STAKES = re.compile(rf"(?P<small>{_AMOUNT})/(?P<big>{_AMOUNT})")
_STARTED_AT = re.compile(
    r" - (?P<started_at>\d{4}/\d{2}/\d{2} \d{1,2}:\d{2}:\d{2} \w+(?: \[[^\]]*\])?)$"
)
_TABLE = re.compile(r"^Table '(?P<name>.*)' (?P<max>\d+)-max")
_SEAT = re.compile(
    rf"^Seat (?P<seat>\d+): (?P<player>.+) \((?P<stack>{_AMOUNT}) in chips\)(?P<rest>.*)$"
)
_STREET = re.compile(
    r"^\*\*\* (?P<name>3rd STREET|4th STREET|5th STREET|6th STREET|RIVER) \*\*\*"
    r"(?: \[(?P<community>[^\]]*)\])?$"
)
_DEALT = re.compile(r"^Dealt to (?P<player>.+?) \[(?P<old>[^\]]*)\](?: \[(?P<new>[^\]]*)\])?$")
_UNCALLED = re.compile(rf"^Uncalled bet \((?P<amount>{_AMOUNT})\) returned to (?P<player>.+)$")
_COLLECTED = re.compile(
    rf"^(?P<player>.+) collected (?P<amount>{_AMOUNT}) from "
    r"(?P<pot>pot|main pot|side pot(?:-\d+)?)$"
)
_TOTAL_POT = re.compile(
    rf"^Total pot (?P<total>{_AMOUNT})(?P<pots>.*?) \| Rake (?P<rake>{_AMOUNT})$"
)
_POT_PART = re.compile(rf"(?P<name>Main pot|Side pot(?:-\d+)?) (?P<amount>{_AMOUNT})\.")
_BOARD = re.compile(r"^Board \[(?P<cards>[^\]]*)\]$")
_SEAT_RESULT = re.compile(
    r"^Seat (?P<seat>\d+): (?P<player>.+?) (?P<result>(?:folded|collected|showed|mucked) .*)$"
)
_ACTION = re.compile(
    rf"^(?P<verb>posts the ante|brings in for|bets|raises|calls|checks|folds|shows|mucks hand|"
    rf"doesn't show hand)(?: (?P<amount>{_AMOUNT}))?(?: to (?P<to>{_AMOUNT}))?"
    r"(?P<all_in> and is all-in)?(?: \[(?P<cards>[^\]]*)\])?(?: \((?P<description>.*)\))?$"
)
_VERB_KINDS = {
    "posts the ante": LineKind.ANTE,
    "brings in for": LineKind.BRING_IN,
    "bets": LineKind.BET,
    "raises": LineKind.RAISE,
    "calls": LineKind.CALL,
    "checks": LineKind.CHECK,
    "folds": LineKind.FOLD,
    "shows": LineKind.SHOWS,
    "mucks hand": LineKind.MUCKS,
    "doesn't show hand": LineKind.DOESNT_SHOW,
}


def parse_amount(text: str) -> int:
    """``"$0.04"`` -> 4 cents, ``"$3318"`` -> 331800, tournament ``"40"`` -> 40 chips."""
    text = text.replace(",", "")
    if text.startswith("$"):
        return int(Decimal(text[1:]) * 100)
    return int(text)


def parse_card_tokens(text: str) -> list[Card | None]:
    """Cards in brackets; a damaged token (91733835979's ``[of]``) becomes None."""
    cards: list[Card | None] = []
    for token in text.split():
        try:
            cards.append(parse_card(token))
        except ValueError:
            cards.append(None)
    return cards


def clean_lines(text: str) -> list[str]:
    """The lines of one hand: BOM, CR and trailing spaces stripped, blank lines dropped."""
    text = text.lstrip("\ufeff")
    return [line.rstrip() for line in text.replace("\r\n", "\n").split("\n") if line.strip()]


def split_hands(text: str) -> list[str]:
    """A file of several hands -> one text per hand."""
    hands: list[list[str]] = []
    for line in clean_lines(text):
        if _HEADER.match(line) or line.upper().startswith("POKERSTARS GAME #"):
            hands.append([])
        if hands:
            hands[-1].append(line)
    return ["\n".join(lines) + "\n" for lines in hands]


def _player_prefix(line: str, players: list[str]) -> tuple[str, str] | None:
    """``"Nikolay Zem: calls $0.02"`` -> (``"Nikolay Zem"``, ``"calls $0.02"``).

    ``players`` longest first, so a name that starts another name cannot steal its lines."""
    for player in players:
        if line.startswith(player + ": "):
            return player, line[len(player) + 2 :]
    return None


def classify_line(line: str, players: list[str]) -> LineKind:
    """The kind of one line of a hand (``players``: the names on its Seat lines)."""
    if _HEADER.match(line) or line.upper().startswith("POKERSTARS GAME #"):
        return LineKind.HEADER
    if _TABLE.match(line):
        return LineKind.TABLE
    if _STREET.match(line):
        return LineKind.STREET
    if line == "*** SHOW DOWN ***":
        return LineKind.SHOW_DOWN
    if line == "*** SUMMARY ***":
        return LineKind.SUMMARY
    if _SEAT.match(line):
        return LineKind.SEAT
    if _SEAT_RESULT.match(line):
        return LineKind.SEAT_RESULT
    if _DEALT.match(line):
        return LineKind.DEALT
    if line == "Betting is capped":
        return LineKind.CAPPED
    if line == "Pair on board - a double bet is allowed":
        return LineKind.DOUBLE_BET_ALLOWED
    if _UNCALLED.match(line):
        return LineKind.UNCALLED
    if _COLLECTED.match(line):
        return LineKind.COLLECTED
    if line == "No low hand qualified":
        return LineKind.NO_LOW
    if _TOTAL_POT.match(line):
        return LineKind.TOTAL_POT
    if _BOARD.match(line):
        return LineKind.BOARD
    prefixed = _player_prefix(line, players)
    if prefixed:
        match = _ACTION.match(prefixed[1])
        if match:
            return _VERB_KINDS[match["verb"]]
    return LineKind.OTHER


# --- the hand -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatLine:
    seat: int
    player: str
    stack: int
    sitting_out: bool


@dataclass(frozen=True)
class ActionLine:
    """One betting line as written: ``amount`` is the X of "bets X", "calls X", "brings in for
    X" and "raises X to Y" (for calls and raises the increment); ``to`` is Y (raises only)."""

    street: int
    player: str
    kind: LineKind  # BRING_IN, BET, RAISE, CALL, CHECK or FOLD
    amount: int = 0
    to: int = 0
    all_in: bool = False


@dataclass(frozen=True)
class ShowdownLine:
    player: str
    kind: LineKind  # SHOWS, MUCKS or DOESNT_SHOW
    cards: tuple[Card | None, ...] = ()
    description: str = ""


@dataclass(frozen=True)
class Collected:
    player: str
    amount: int
    pot: str  # "pot", "main pot", "side pot", "side pot-2"


@dataclass
class PokerStarsHand:
    hand_id: str
    header: str
    game: str  # "stud" or "stud8"
    tournament: bool
    dollars: bool  # amounts were written with "$" (and are now cents)
    small_bet: int
    big_bet: int
    started_at: str
    table_name: str
    max_seats: int
    seats: list[SeatLine]
    antes: dict[str, int] = field(default_factory=dict)
    actions: list[ActionLine] = field(default_factory=list)
    streets_dealt: list[int] = field(default_factory=list)
    # Each player's seven cards in dealing order: down, down, up x4, down; None when unknown.
    cards: dict[str, list[Card | None]] = field(default_factory=dict)
    community_card: Card | None = None
    capped_streets: list[int] = field(default_factory=list)
    double_bet_allowed: bool = False
    uncalled: list[tuple[str, int]] = field(default_factory=list)
    uncalled_streets: list[int] = field(default_factory=list)  # the street of each return
    showdown: list[ShowdownLine] = field(default_factory=list)
    collected: list[Collected] = field(default_factory=list)
    no_low_qualified: bool = False
    total_pot: int = 0
    named_pots: list[tuple[str, int]] = field(default_factory=list)  # Main pot / Side pot, net
    rake: int = 0
    board: list[Card] = field(default_factory=list)
    seat_results: dict[str, str] = field(default_factory=dict)
    lines: list[tuple[LineKind, str]] = field(default_factory=list)

    @property
    def players(self) -> list[str]:
        return [seat.player for seat in self.seats]

    def seat_of(self, player: str) -> int:
        return next(seat.seat for seat in self.seats if seat.player == player)

    def player_at(self, seat: int) -> str:
        return next(line.player for line in self.seats if line.seat == seat)

    @property
    def dealt_in(self) -> list[SeatLine]:
        """Seats that posted the ante (so were dealt in), in seat order."""
        return [seat for seat in self.seats if seat.player in self.antes]

    def street_actions(self, street: int) -> list[ActionLine]:
        return [action for action in self.actions if action.street == street]

    def chips_put_in(self) -> dict[str, int]:
        """Antes plus every chip bet, before uncalled bets come back."""
        put_in = dict(self.antes)
        street_total: dict[tuple[int, str], int] = {}
        for action in self.actions:
            key = (action.street, action.player)
            before = street_total.get(key, 0)
            if action.kind in (LineKind.BET, LineKind.BRING_IN):
                after = action.amount
            elif action.kind is LineKind.RAISE:
                after = action.to
            elif action.kind is LineKind.CALL:
                after = before + action.amount
            else:
                continue
            street_total[key] = after
            put_in[action.player] = put_in.get(action.player, 0) + after - before
        return put_in

    def final_stacks(self) -> dict[str, int]:
        """Stacks after the hand, from the file's own lines (rake already taken)."""
        put_in = self.chips_put_in()
        stacks = {seat.player: seat.stack - put_in.get(seat.player, 0) for seat in self.seats}
        for player, amount in self.uncalled:
            stacks[player] += amount
        for collected in self.collected:
            stacks[collected.player] += collected.amount
        return stacks

    def winnings(self) -> dict[str, int]:
        """Total collected per player."""
        won: dict[str, int] = {}
        for collected in self.collected:
            won[collected.player] = won.get(collected.player, 0) + collected.amount
        return won


def _set_cards(slots: list[Card | None], start: int, cards: list[Card | None]) -> None:
    for offset, card in enumerate(cards):
        index = start + offset
        if index < 7 and card is not None:
            if slots[index] is not None and slots[index] != card:
                raise ValueError(f"conflicting card in slot {index}: {slots[index]} vs {card}")
            slots[index] = card


def parse_hand(text: str) -> PokerStarsHand:
    """Parse one hand (the text of one file in split/)."""
    lines = clean_lines(text)
    header = lines[0]
    header_match = _HEADER.match(header) or re.match(
        r"^POKERSTARS GAME #(?P<hand_id>\d+):", header, re.I
    )
    if not header_match:
        raise ValueError(f"not a PokerStars header: {header!r}")
    after_id = header[header_match.end() :]
    stakes = _STAKES.search(after_id)
    if not stakes:
        raise ValueError(f"no stakes in {header!r}")
    started = _STARTED_AT.search(header)
    upper = header.upper()
    game = "stud8" if "HI/LO" in upper else "stud"
    table = _TABLE.match(lines[1])
    hand = PokerStarsHand(
        hand_id=header_match["hand_id"],
        header=header,
        game=game,
        tournament="TOURNAMENT #" in upper,
        dollars=stakes["small"].startswith("$"),
        small_bet=parse_amount(stakes["small"]),
        big_bet=parse_amount(stakes["big"]),
        started_at=started["started_at"] if started else "",
        table_name=table["name"] if table else "",
        max_seats=int(table["max"]) if table else 8,
        seats=[],
    )
    for line in lines:
        seat = _SEAT.match(line)
        if seat:
            hand.seats.append(
                SeatLine(
                    seat=int(seat["seat"]),
                    player=seat["player"],
                    stack=parse_amount(seat["stack"]),
                    sitting_out="sitting out" in seat["rest"],
                )
            )
        if line == "*** 3rd STREET ***":
            break
    names = sorted(hand.players, key=len, reverse=True)
    hand.cards = {player: [None] * 7 for player in hand.players}
    street = 0
    in_summary = False
    for line in lines:
        kind = classify_line(line, names)
        if in_summary and kind is LineKind.SEAT:
            kind = LineKind.OTHER  # cannot happen in real files; Seat lines come first
        hand.lines.append((kind, line))
        if kind is LineKind.STREET:
            match = _STREET.match(line)
            assert match
            street = STREET_NUMBERS[match["name"]]
            hand.streets_dealt.append(street)
            if match["community"]:
                hand.community_card = parse_card_tokens(match["community"])[0]
        elif kind is LineKind.SUMMARY:
            in_summary = True
        elif kind is LineKind.SHOW_DOWN:
            street = 8
        elif kind is LineKind.DEALT:
            _read_dealt(hand, line, street)
        elif kind is LineKind.CAPPED:
            hand.capped_streets.append(street)
        elif kind is LineKind.DOUBLE_BET_ALLOWED:
            hand.double_bet_allowed = True
        elif kind is LineKind.UNCALLED:
            match = _UNCALLED.match(line)
            assert match
            hand.uncalled.append((match["player"], parse_amount(match["amount"])))
            hand.uncalled_streets.append(street)
        elif kind is LineKind.COLLECTED:
            match = _COLLECTED.match(line)
            assert match
            hand.collected.append(
                Collected(match["player"], parse_amount(match["amount"]), match["pot"])
            )
        elif kind is LineKind.NO_LOW:
            hand.no_low_qualified = True
        elif kind is LineKind.TOTAL_POT:
            match = _TOTAL_POT.match(line)
            assert match
            hand.total_pot = parse_amount(match["total"])
            hand.rake = parse_amount(match["rake"])
            hand.named_pots = [
                (part["name"], parse_amount(part["amount"]))
                for part in _POT_PART.finditer(match["pots"])
            ]
        elif kind is LineKind.BOARD:
            match = _BOARD.match(line)
            assert match
            hand.board = [card for card in parse_card_tokens(match["cards"]) if card is not None]
        elif kind is LineKind.SEAT_RESULT:
            _read_seat_result(hand, line)
        elif kind in _VERB_KINDS.values():
            _read_player_line(hand, line, kind, names, street)
    return hand


def _read_dealt(hand: PokerStarsHand, line: str, street: int) -> None:
    match = _DEALT.match(line)
    assert match
    player = match["player"]
    old = parse_card_tokens(match["old"])
    new = parse_card_tokens(match["new"] or "")
    slots = hand.cards[player]
    if street == 3:
        # the player's own three cards, or someone else's door card
        _set_cards(slots, 0 if len(old) == 3 else 2, old)
    elif len(old) >= street - 1:
        # the player's own cards: [all cards so far] [the new one]
        _set_cards(slots, 0, old)
        _set_cards(slots, street - 1, new)
    else:
        # someone else's up cards: [up cards so far] [the new one]
        _set_cards(slots, 2, old)
        _set_cards(slots, street - 1, new)


def _read_seat_result(hand: PokerStarsHand, line: str) -> None:
    match = _SEAT_RESULT.match(line)
    assert match
    player, result = match["player"], match["result"]
    hand.seat_results[player] = result
    cards = re.match(r"^(?:showed|mucked) \[(?P<cards>[^\]]*)\]", result)
    if cards:
        _set_shown_cards(hand, player, parse_card_tokens(cards["cards"]))


def _set_shown_cards(hand: PokerStarsHand, player: str, cards: list[Card | None]) -> None:
    """Shown cards are listed down, down, up x4, down (six when the river was shared)."""
    _set_cards(hand.cards[player], 0, cards)


def _read_player_line(
    hand: PokerStarsHand, line: str, kind: LineKind, names: list[str], street: int
) -> None:
    prefixed = _player_prefix(line, names)
    assert prefixed
    player, rest = prefixed
    match = _ACTION.match(rest)
    assert match
    amount = parse_amount(match["amount"]) if match["amount"] else 0
    if kind is LineKind.ANTE:
        hand.antes[player] = hand.antes.get(player, 0) + amount
    elif kind in (LineKind.SHOWS, LineKind.MUCKS, LineKind.DOESNT_SHOW):
        cards = tuple(parse_card_tokens(match["cards"] or ""))
        hand.showdown.append(ShowdownLine(player, kind, cards, match["description"] or ""))
        if cards:
            _set_shown_cards(hand, player, list(cards))
    else:
        hand.actions.append(
            ActionLine(
                street=street,
                player=player,
                kind=kind,
                amount=amount,
                to=parse_amount(match["to"]) if match["to"] else 0,
                all_in=bool(match["all_in"]),
            )
        )


def parse_file(path: Path) -> PokerStarsHand:
    return parse_hand(path.read_text(encoding="utf-8-sig"))


# --- replaying a hand through the engine ----------------------------------------------------

# The bring-in of stakes where the file's low card completed at once and never wrote it
# (FORMAT.md section 2, "Observed structures"); it only sets what the low card could have posted.
BRING_IN_BY_STAKES = {(4, 8): 2, (40, 80): 12, (25, 50): 10, (250, 500): 75, (40000, 80000): 12000}


class ReplayMismatch(AssertionError):
    """The engine did something other than the file at some step."""


class WrongCommunityCard(Exception):
    """The R-DEAL-5 reshuffle turned another card; the caller tries the next seed."""


@dataclass
class Replay:
    source: PokerStarsHand
    config: GameConfig
    seats: list[SeatSetup]
    deck: list[Card]
    button: int
    reshuffle_seed: int
    hand: StudHand
    events: list[Event]
    pots_after_street: dict[int, int]  # what the engine's pot held when each street closed


def game_config(source: PokerStarsHand) -> GameConfig:
    """The table the file was played at. The rake is a schedule that takes exactly the file's
    rake from its total pot, so the engine's own rake arithmetic (R-POT-5) is exercised."""
    bring_ins = [a.amount for a in source.actions if a.kind is LineKind.BRING_IN]
    stakes = (source.small_bet, source.big_bet)
    bring_in = bring_ins[0] if bring_ins else BRING_IN_BY_STAKES.get(stakes, source.small_bet // 2)
    rake = None
    if source.rake:
        rake = RakeSchedule(
            (
                RakeTier(
                    min_players=1,
                    max_players=None,
                    cap=source.rake,
                    amount=source.rake,
                    thresholds=(source.total_pot,),
                ),
            )
        )
    return GameConfig(
        game=Game(source.game),
        small_bet=source.small_bet,
        big_bet=source.big_bet,
        ante=max(source.antes.values()),
        bring_in=bring_in,
        # PokerStars capped heads-up play too: 35874289931 prints "Betting is capped" after a
        # bet and three raises between two players (R-BET-4's table option)
        heads_up_raises=3,
        rake=rake,
    )


def _live_on_street(source: PokerStarsHand, street: int) -> list[str]:
    """Players dealt a card on ``street``: dealt in and not folded on an earlier street."""
    folded = {a.player for a in source.actions if a.kind is LineKind.FOLD and a.street < street}
    return [seat.player for seat in source.dealt_in if seat.player not in folded]


def _showdown_players(source: PokerStarsHand) -> list[str]:
    if not any(kind is LineKind.SHOW_DOWN for kind, _ in source.lines):
        return []
    return _live_on_street(source, 8)


def _full_cards(source: PokerStarsHand, player: str, cards: list[Card]) -> list[Card]:
    if source.community_card is not None:
        return [*cards[:6], source.community_card]
    return cards


def _consistent(source: PokerStarsHand, cards: dict[str, list[Card]], unknown: set[str]) -> bool:
    """Filled-in cards may not change the file's showdown: a player whose cards were never
    shown and who won nothing must lose every pot; one who won must still beat the others."""
    at_showdown = _showdown_players(source)
    if not at_showdown or not unknown & set(at_showdown):
        return True
    winners = set(source.winnings())
    high = {p: high_rank(_full_cards(source, p, cards[p])) for p in at_showdown}
    low = {p: low8_rank(_full_cards(source, p, cards[p])) for p in at_showdown}
    for player in unknown & set(at_showdown):
        if player in winners:
            if any(high[player] <= high[other] for other in at_showdown if other not in winners):
                return False
        else:
            if any(high[player] >= high[winner] for winner in winners if winner in high):
                return False
            if source.game == "stud8" and low[player] is not None:
                return False
    return True


def stacked_deck(source: PokerStarsHand) -> list[Card]:
    """A 52-card deck that deals every card the file shows where it shows it.

    The deal follows the contract: third street one card at a time from the dealer's left
    (down, down, door), then a burn and one card per live player on each later street. The
    button is put on the highest seat dealt in, so the deal starts at the lowest seat, in the
    order PokerStars lists its "Dealt to" lines. Cards the file never shows are filled from
    the unused ones, chosen (by a seeded search) so they cannot change the showdown.
    """
    order = [seat.player for seat in source.dealt_in]
    slots: list[tuple[str, int] | None] = []  # (player, card index 0..6) or None for a burn
    for index in range(3):
        slots.extend((player, index) for player in order)
    for street in (4, 5, 6, 7):
        if street not in source.streets_dealt:
            break
        slots.append(None)
        if street == 7 and source.community_card is not None:
            break
        slots.extend((player, street - 1) for player in _live_on_street(source, street))
    known = [card for player in order for card in source.cards[player] if card is not None]
    if source.community_card is not None:
        known.append(source.community_card)
    if len(set(known)) != len(known):
        raise ValueError(f"{source.hand_id}: a card is shown twice")
    unknown_players = {
        player
        for player, index in (slot for slot in slots if slot is not None)
        if source.cards[player][index] is None
    }
    unused = [card for card in range(52) if card not in set(known)]
    for attempt in range(5000):
        rng = random.Random(attempt)
        pool = unused[:]
        rng.shuffle(pool)
        cards = {player: list(source.cards[player]) for player in order}
        deck: list[Card] = []
        community_placed = False
        for slot in slots:
            if slot is None:
                if source.community_card is not None and not community_placed:
                    deck.append(source.community_card)
                    community_placed = True
                else:
                    deck.append(pool.pop())
                continue
            player, index = slot
            card = cards[player][index]
            if card is None:
                card = pool.pop()
                cards[player][index] = card
            deck.append(card)
        filled = {p: [c for c in cs if c is not None] for p, cs in cards.items()}
        if _consistent(source, filled, unknown_players):
            return deck + pool
    raise ValueError(f"{source.hand_id}: no deck fits the file")


def _expected_action(
    source: PokerStarsHand, line: ActionLine, before: int, completed: bool
) -> tuple[ActionKind, int]:
    """The engine's action for one file line: kind and to-amount."""
    if line.kind is LineKind.BRING_IN:
        return ActionKind.BRING_IN, line.amount
    if line.kind is LineKind.BET:
        # on 3rd street only the low card "bets": it completes instead of bringing in
        return (ActionKind.COMPLETE if line.street == 3 else ActionKind.BET), line.amount
    if line.kind is LineKind.RAISE:
        # PokerStars writes the completion of a bring-in as a raise
        if line.street == 3 and not completed:
            return ActionKind.COMPLETE, line.to
        return ActionKind.RAISE, line.to
    if line.kind is LineKind.CALL:
        return ActionKind.CALL, before + line.amount
    if line.kind is LineKind.CHECK:
        return ActionKind.CHECK, 0
    return ActionKind.FOLD, 0


def file_pots_after_street(source: PokerStarsHand) -> dict[int, int]:
    """The pot when each street's betting closed: antes, bets, less uncalled bets returned."""
    pot = sum(source.antes.values())
    put_in: dict[tuple[int, str], int] = {}
    pots: dict[int, int] = {}
    for street in (3, 4, 5, 6, 7):
        if street not in source.streets_dealt:
            break
        for line in source.street_actions(street):
            key = (street, line.player)
            before = put_in.get(key, 0)
            kind, to = _expected_action(source, line, before, completed=True)
            if kind in (ActionKind.CHECK, ActionKind.FOLD):
                continue
            put_in[key] = to
            pot += to - before
        pot -= sum(
            amount
            for (_, amount), on in zip(source.uncalled, source.uncalled_streets, strict=True)
            if on == street
        )
        pots[street] = pot
    return pots


def replay_hand(source: PokerStarsHand) -> Replay:
    """Replay the file through the engine, checking every step; raise ReplayMismatch on the
    first difference. Checks: the same player is asked to act; each action is offered with
    that amount (and a call adds what the file says); the pot when each street closes."""
    for seed in range(200):
        try:
            return _replay_with_seed(source, seed)
        except WrongCommunityCard:
            continue
    raise ReplayMismatch(f"{source.hand_id}: no reshuffle seed turns the file's community card")


def _replay_with_seed(source: PokerStarsHand, reshuffle_seed: int) -> Replay:
    config = game_config(source)
    # R-SHOW-3: a player who showed a losing hand in the file had auto-muck off
    showed = {line.player for line in source.showdown if line.kind is LineKind.SHOWS}
    seats = [
        SeatSetup(seat=s.seat, name=s.player, stack=s.stack, auto_muck=s.player not in showed)
        for s in source.dealt_in
    ]
    button = max(s.seat for s in source.dealt_in)
    deck = stacked_deck(source)
    hand, events = StudHand.start(config, seats, deck, button, reshuffle_seed=reshuffle_seed)
    all_events = list(events)
    expected_pots = file_pots_after_street(source)
    pots: dict[int, int] = {}
    street = 3
    put_in: dict[str, int] = {}
    completed = False

    def fail(message: str) -> ReplayMismatch:
        return ReplayMismatch(f"{source.hand_id} street {street}: {message}")

    for line in source.actions:
        if line.street != street:
            pots[street] = hand.pot
            if hand.pot != expected_pots[street]:
                raise fail(f"pot {hand.pot} at the end of the street, file {expected_pots[street]}")
            street, put_in, completed = line.street, {}, False
            if hand.street != street:
                raise fail(f"engine is on street {hand.street}")
            if (
                street == 7
                and source.community_card is not None
                and hand.community_card != source.community_card
            ):
                raise WrongCommunityCard
        seat = source.seat_of(line.player)
        if hand.to_act != seat:
            raise fail(f"engine asks seat {hand.to_act}, file has {line.player} (seat {seat})")
        before = put_in.get(line.player, 0)
        kind, to = _expected_action(source, line, before, completed)
        legal = hand.legal_actions(seat)
        offer = next((o for o in legal if o.kind is kind and o.amount == to), None)
        if offer is None:
            raise fail(f"{line.player}: {kind} to {to} not offered; offered {legal}")
        if line.kind is LineKind.CALL and offer.adds != line.amount:
            raise fail(f"{line.player}: call adds {offer.adds}, file {line.amount}")
        if kind in (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE):
            completed = True
        if kind not in (ActionKind.CHECK, ActionKind.FOLD):
            put_in[line.player] = to
        hand, events = hand.apply(offer.for_seat(seat))
        all_events.extend(events)
    pots[street] = hand.pot if not hand.is_over else expected_pots.get(street, 0)
    if not hand.is_over:
        raise fail(f"the file's actions are over but the engine waits for seat {hand.to_act}")
    if not any(kind is LineKind.SHOW_DOWN for kind, _ in source.lines):
        # R-SHOW-3: a winner nobody called chose to show
        for shown in source.showdown:
            if shown.kind is LineKind.SHOWS:
                seat = source.seat_of(shown.player)
                if not hand.may_show(seat):
                    raise fail(f"{shown.player} shows, but the engine does not let them")
                hand, events = hand.show_cards(seat)
                all_events.extend(events)
    return Replay(
        source=source,
        config=config,
        seats=seats,
        deck=deck,
        button=button,
        reshuffle_seed=reshuffle_seed,
        hand=hand,
        events=all_events,
        pots_after_street=pots,
    )
