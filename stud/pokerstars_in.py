"""PokerStars stud hand histories read back: 7 Card Stud, 7 Card Stud Hi/Lo and Razz, cash and
tournament, as PokerStars writes them and the rooms that copy its format (ours among them:
stud/history_text.py). The format is described in ../shared/testdata/pokerstars-stud/FORMAT.md.

``parse_hand`` reads one hand's lines, each classified (``LineKind``) and numbered as in the
file: amounts with a ``$`` become integer cents; tournament chips stay as they are.
``replay_hand`` replays it through the engine from a deck stacked to deal the file's cards and
checks it at every step: the same player asked to act (R-BRING-1, R-ORDER-1, R-RAZZ-2/3), each
action offered at the file's amount (R-BET-1..6), the all-in the file says, the pot when each
street closes, and at the end the uncalled bets, the total pot and what each player collected
(R-POT, R-HILO, R-RAZZ-1). A hand that does not add up is refused (``HistoryRefused``) with
the line that fails. ``read_pokerstars`` does it for a whole file of hands.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from enum import StrEnum

from stud.actions import ActionKind, Event, LegalAction
from stud.cards import Card, card_text, parse_card
from stud.config import Game, GameConfig, SeatSetup
from stud.dealing import Deal, deal_positions
from stud.hand import StudHand
from stud.history_text import format_amount
from stud.rake import RakeSchedule, RakeTier
from stud.read_hand import (
    HistoryRefused,
    ReadHand,
    Refusal,
    deal_slots,
    filled_decks,
)

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
_STREET_WORDS = {
    3: "third street", 4: "fourth street", 5: "fifth street", 6: "sixth street", 7: "the river",
}  # fmt: skip

_AMOUNT = r"\$?[\d,]+(?:\.\d+)?"
_HEADER = re.compile(r"^PokerStars (?:Home Game )?(?:Game|Hand) #(?P<hand_id>\d+):")
_ANY_HEADER = re.compile(r"^POKERSTARS (?:HOME GAME )?(?:GAME|HAND) #(?P<hand_id>\d+):", re.I)
_STAKES = re.compile(rf"(?P<small>{_AMOUNT})/(?P<big>{_AMOUNT})")
_GAME_IN_MIX = re.compile(r"\((?P<game>[^()]*Limit[^()]*)\)", re.I)
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
_BRACKETS = re.compile(r"\[([^\]]*)\]")
_CARD_LINES = (
    LineKind.DEALT, LineKind.SHOWS, LineKind.MUCKS, LineKind.SEAT_RESULT, LineKind.STREET,
    LineKind.BOARD,
)  # fmt: skip


def parse_amount(text: str) -> int:
    """``"$0.04"`` -> 4 cents, ``"$3318"`` -> 331800, tournament ``"40"`` -> 40 chips."""
    text = text.replace(",", "")
    try:
        if text.startswith("$"):
            cents = Decimal(text[1:]) * 100
            if cents != cents.to_integral_value():
                raise ValueError(f"{text} is not a whole number of cents")
            return int(cents)
        return int(text)
    except InvalidOperation:
        raise ValueError(f"not an amount: {text!r}") from None


def parse_card_tokens(text: str) -> list[Card | None]:
    """Cards in brackets; a damaged token (91733835979's ``[of]``) becomes None."""
    cards: list[Card | None] = []
    for token in text.split():
        try:
            cards.append(parse_card(token))
        except ValueError:
            cards.append(None)
    return cards


def numbered_lines(text: str, first_line: int = 1) -> list[tuple[int, str]]:
    """The lines of a text with their numbers in the file: BOM, CR and trailing spaces
    stripped, blank lines dropped (their numbers are skipped)."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    return [
        (number, line.rstrip())
        for number, line in enumerate(text.split("\n"), start=first_line)
        if line.strip()
    ]


def clean_lines(text: str) -> list[str]:
    """The lines of one hand: BOM, CR and trailing spaces stripped, blank lines dropped."""
    return [line for _, line in numbered_lines(text)]


def is_header(line: str) -> bool:
    return bool(_HEADER.match(line) or _ANY_HEADER.match(line))


def split_hands(text: str) -> list[tuple[int, str]]:
    """A file of several hands -> (the number of its first line, its text) for each hand.
    Lines before the first header are not part of any hand."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if is_header(line.strip())]
    hands = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        body = lines[start:end]
        while body and not body[-1].strip():
            body.pop()
        hands.append((start + 1, "\n".join(body) + "\n"))
    return hands


def _player_prefix(line: str, players: list[str]) -> tuple[str, str] | None:
    """``"Nikolay Zem: calls $0.02"`` -> (``"Nikolay Zem"``, ``"calls $0.02"``).

    ``players`` longest first, so a name that starts another name cannot steal its lines."""
    for player in players:
        if line.startswith(player + ": "):
            return player, line[len(player) + 2 :]
    return None


def classify_line(line: str, players: list[str]) -> LineKind:
    """The kind of one line of a hand (``players``: the names on its Seat lines)."""
    if is_header(line):
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
    X" and "raises X to Y" (for calls and raises the increment); ``to`` is Y (raises only).
    ``line``: its number in the file; ``text``: the line."""

    street: int
    player: str
    kind: LineKind  # BRING_IN, BET, RAISE, CALL, CHECK or FOLD
    amount: int = 0
    to: int = 0
    all_in: bool = False
    line: int = 0
    text: str = ""


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
    line: int = 0
    text: str = ""


@dataclass
class PokerStarsHand:
    hand_id: str
    header: str
    game: str  # "stud", "stud8" or "razz"
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
    # where things are in the file (line numbers from 1), for the checks' messages
    numbers: list[int] = field(default_factory=list)  # of each of ``lines``
    first_line: int = 1
    street_lines: dict[int, int] = field(default_factory=dict)
    uncalled_lines: list[tuple[int, str]] = field(default_factory=list)
    total_pot_line: tuple[int, str] = (0, "")
    hero: str | None = None  # the player whose three third-street cards the file gives
    damaged: list[tuple[int, str]] = field(default_factory=list)  # lines with an unreadable card
    unread: list[tuple[int, str]] = field(default_factory=list)  # "Name: ..." not understood

    @property
    def title(self) -> str:
        return f"PokerStars Hand #{self.hand_id}"

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

    def amount(self, chips: int) -> str:
        """An amount as the file writes it."""
        return format_amount(chips, dollars=self.dollars)

    def refused(self, line: int, text: str, why: str) -> HistoryRefused:
        return HistoryRefused(f"{self.title}, line {line} ({text!r}) does not add up: {why}")


def _set_cards(slots: list[Card | None], start: int, cards: list[Card | None]) -> None:
    for offset, card in enumerate(cards):
        index = start + offset
        if index < 7 and card is not None:
            if slots[index] is not None and slots[index] != card:
                raise ValueError(
                    f"{card_text(card)} where the file dealt {card_text(slots[index] or 0)}"
                )
            slots[index] = card


class NotStud(HistoryRefused):
    """A hand of another game (Hold'em, Omaha...) in a mixed file: left out, not damaged."""


def _game(after_id: str) -> str:
    mixed = _GAME_IN_MIX.search(after_id)
    game_text = (mixed["game"] if mixed else after_id).upper()
    if "RAZZ" in game_text and "LIMIT" in game_text and "NO LIMIT" not in game_text:
        return Game.RAZZ.value
    if "7 CARD STUD" in game_text and "NO LIMIT" not in game_text and "POT LIMIT" not in game_text:
        return Game.STUD8.value if "HI/LO" in game_text else Game.STUD.value
    raise ValueError(
        f"{mixed['game'] if mixed else 'its game'} is not limit stud: only 7 Card Stud, "
        "7 Card Stud Hi/Lo and Razz replay here"
    )


def parse_hand(text: str, first_line: int = 1) -> PokerStarsHand:
    """Parse one hand (the text of one file in split/). ``first_line``: the number of its
    first line in the file it came from, for the messages. Refused (``HistoryRefused``) when
    a line cannot be read."""
    lines = numbered_lines(text, first_line)
    if not lines:
        raise HistoryRefused("no hand: the text is empty")
    number, header = lines[0]
    header_match = _HEADER.match(header) or _ANY_HEADER.match(header)
    if not header_match:
        raise HistoryRefused(f"line {number} ({header!r}) is not a PokerStars hand's first line")
    title = f"PokerStars Hand #{header_match['hand_id']}"
    after_id = header[header_match.end() :]
    stakes = _STAKES.search(after_id)
    if not stakes:
        raise HistoryRefused(f"{title}, line {number}: the header gives no stakes")
    try:
        game = _game(after_id)
    except ValueError as error:
        raise NotStud(f"{title}, line {number}: {error}") from None
    started = _STARTED_AT.search(header)
    upper = header.upper()
    table = _TABLE.match(lines[1][1]) if len(lines) > 1 else None
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
        first_line=first_line,
    )
    for number, line in lines:
        seat = _SEAT.match(line)
        if seat:
            player = seat["player"]
            if player in hand.players or int(seat["seat"]) in {s.seat for s in hand.seats}:
                raise hand.refused(number, line, "that seat or player is listed twice")
            hand.seats.append(
                SeatLine(
                    seat=int(seat["seat"]),
                    player=player,
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
    for number, line in lines:
        kind = classify_line(line, names)
        if in_summary and kind is LineKind.SEAT:
            kind = LineKind.OTHER  # cannot happen in real files; Seat lines come first
        hand.lines.append((kind, line))
        hand.numbers.append(number)
        try:
            street, in_summary = _read_line(hand, number, line, kind, names, street, in_summary)
        except HistoryRefused:
            raise
        except (ValueError, KeyError, IndexError) as error:
            raise hand.refused(number, line, str(error).strip("'\"")) from None
        if kind in _CARD_LINES and any(
            None in parse_card_tokens(group) for group in _BRACKETS.findall(line)
        ):
            hand.damaged.append((number, line))
    return hand


def _read_line(
    hand: PokerStarsHand,
    number: int,
    line: str,
    kind: LineKind,
    names: list[str],
    street: int,
    in_summary: bool,
) -> tuple[int, bool]:
    """Read one classified line into ``hand``; the street and whether the summary began."""
    if kind is LineKind.STREET:
        match = _STREET.match(line)
        assert match
        street = STREET_NUMBERS[match["name"]]
        if street in hand.streets_dealt:
            raise ValueError(f"{match['name']} is dealt twice")
        hand.streets_dealt.append(street)
        hand.street_lines[street] = number
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
        if match["player"] not in hand.cards:
            raise ValueError(f"{match['player']} has no seat")
        hand.uncalled.append((match["player"], parse_amount(match["amount"])))
        hand.uncalled_streets.append(street)
        hand.uncalled_lines.append((number, line))
    elif kind is LineKind.COLLECTED:
        match = _COLLECTED.match(line)
        assert match
        if match["player"] not in hand.cards:
            raise ValueError(f"{match['player']} has no seat")
        hand.collected.append(
            Collected(match["player"], parse_amount(match["amount"]), match["pot"], number, line)
        )
    elif kind is LineKind.NO_LOW:
        hand.no_low_qualified = True
    elif kind is LineKind.TOTAL_POT:
        match = _TOTAL_POT.match(line)
        assert match
        hand.total_pot = parse_amount(match["total"])
        hand.rake = parse_amount(match["rake"])
        hand.total_pot_line = (number, line)
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
        _read_player_line(hand, number, line, kind, names, street)
    elif kind is LineKind.OTHER and not in_summary and _player_prefix(line, names):
        hand.unread.append((number, line))
    return street, in_summary


def _read_dealt(hand: PokerStarsHand, line: str, street: int) -> None:
    match = _DEALT.match(line)
    assert match
    player = match["player"]
    if player not in hand.cards:
        raise ValueError(f"cards dealt to {player}, who has no seat")
    if not 3 <= street <= 7:
        raise ValueError("cards dealt outside the streets")
    old = parse_card_tokens(match["old"])
    new = parse_card_tokens(match["new"] or "")
    slots = hand.cards[player]
    if street == 3:
        # the player's own three cards, or someone else's door card
        if len(old) == 3 and hand.hero is None:
            hand.hero = player
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
    if cards and player in hand.cards:
        _set_shown_cards(hand, player, parse_card_tokens(cards["cards"]))


def _set_shown_cards(hand: PokerStarsHand, player: str, cards: list[Card | None]) -> None:
    """Shown cards are listed down, down, up x4, down (six when the river was shared)."""
    _set_cards(hand.cards[player], 0, cards)


def _read_player_line(
    hand: PokerStarsHand, number: int, line: str, kind: LineKind, names: list[str], street: int
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
        if not 3 <= street <= 7:
            raise ValueError("a bet outside the streets")
        hand.actions.append(
            ActionLine(
                street=street,
                player=player,
                kind=kind,
                amount=amount,
                to=parse_amount(match["to"]) if match["to"] else 0,
                all_in=bool(match["all_in"]),
                line=number,
                text=line,
            )
        )


# --- replaying a hand through the engine ----------------------------------------------------

_AGGRESSIVE = (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE)

# The bring-in of stakes where the file's low card completed at once and never wrote it
# (FORMAT.md section 2, "Observed structures"); it only sets what the low card could have posted.
BRING_IN_BY_STAKES = {(4, 8): 2, (40, 80): 12, (25, 50): 10, (250, 500): 75, (40000, 80000): 12000}
# How many ways of filling the cards the file does not name are replayed (only a showdown of
# unshown hands may need more than one).
FILLS = 10


class ReplayMismatch(HistoryRefused):
    """The engine did something other than the file at some step."""


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


def _deal_order(source: PokerStarsHand) -> list[str]:
    """The players dealt in, from the dealer's left: the first "Dealt to" line of third street
    is the first card dealt (PokerStars lists from the lowest seat; our room from the
    button's left), the others follow by seat."""
    dealt_in = [seat.player for seat in source.dealt_in]
    first = next(
        (
            match["player"]
            for kind, line in source.lines
            if kind is LineKind.DEALT
            and (match := _DEALT.match(line))
            and match["player"] in dealt_in
        ),
        None,
    )
    if first is None:
        return dealt_in
    start = dealt_in.index(first)
    return dealt_in[start:] + dealt_in[:start]


def _live_on_street(source: PokerStarsHand, street: int) -> list[str]:
    """Players dealt a card on ``street``, in the order of the deal: dealt in and not folded
    on an earlier street."""
    folded = {a.player for a in source.actions if a.kind is LineKind.FOLD and a.street < street}
    return [player for player in _deal_order(source) if player not in folded]


def _showdown_players(source: PokerStarsHand) -> list[str]:
    if not any(kind is LineKind.SHOW_DOWN for kind, _ in source.lines):
        return []
    return _live_on_street(source, 8)


def _unknown_at_showdown(source: PokerStarsHand) -> set[str]:
    """Players at the showdown with a card the file does not name."""
    return {
        player
        for player in _showdown_players(source)
        if any(card is None for card in _full_cards_slots(source, player))
    }


def _full_cards_slots(source: PokerStarsHand, player: str) -> list[Card | None]:
    slots = source.cards[player]
    return slots[:6] if source.community_card is not None else slots


def deal_of_file(source: PokerStarsHand) -> tuple[Deal, list[Card | None]]:
    """The deal the file describes and the deck's 52 places, each with the card the file
    shows there or None (``stud.read_hand.deal_slots``): third street one card at a time
    from the dealer's left (down, down, door), then a burn and one card per live player on
    each later street, the river as R-DEAL-5 deals it."""
    order = _deal_order(source)
    seat_of = {player: source.seat_of(player) for player in order}
    player_at = {seat: player for player, seat in seat_of.items()}
    streets = [
        (street, [seat_of[p] for p in _live_on_street(source, street)])
        for street in (4, 5, 6, 7)
        if street in source.streets_dealt
    ]
    deal, slots = deal_slots(
        [seat_of[p] for p in order],
        streets,
        lambda seat, index: source.cards[player_at[seat]][index],
        source.community_card,
    )
    number = source.street_lines.get(7, 0)
    river = f"{source.title}, line {number} ('*** RIVER ***...') does not add up"
    if deal.river == "community" and source.community_card is None:
        raise HistoryRefused(f"{river}: the river is one shared card, and the file gives none")
    return deal, slots


def stacked_decks(source: PokerStarsHand, tries: int = FILLS) -> Iterator[list[Card]]:
    """52-card decks that deal every card the file shows where it shows it (``deal_of_file``).
    Cards the file never shows are filled from the unused ones: first with the unshown hands
    at the showdown (the file's losers) as weak as they can be, then in other seeded orders."""
    deal, slots = deal_of_file(source)
    unknown = {source.seat_of(player) for player in _unknown_at_showdown(source)}
    community = [p for slot, p in deal_positions(deal) if slot.face == "community"]
    losers = [
        [position for slot, position in deal_positions(deal) if slot.seat == seat] + community
        for seat in sorted(unknown)
    ]
    try:
        yield from filled_decks(
            slots, tries=tries if unknown else 1, game=Game(source.game), losers=losers
        )
    except HistoryRefused as refused:
        raise HistoryRefused(f"{source.title} does not add up: {refused}") from None


def stacked_deck(source: PokerStarsHand) -> list[Card]:
    """The first of ``stacked_decks``."""
    for deck in stacked_decks(source):
        return deck
    raise HistoryRefused(f"{source.title} does not add up: no deal fits its showdown")


def _expected_action(line: ActionLine, before: int, completed: bool) -> tuple[ActionKind, int]:
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
            kind, to = _expected_action(line, before, completed=True)
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


def _check_complete(source: PokerStarsHand) -> None:
    """A hand cut short (a truncated file) is refused before anything is replayed."""
    last_line, last = source.numbers[-1], source.lines[-1][1]
    cut = f"{source.title} is cut short: it ends at line {last_line} ({last!r})"
    if 3 not in source.streets_dealt:
        raise HistoryRefused(f"{cut} before third street is dealt")
    if not source.dealt_in:
        raise HistoryRefused(f"{source.title} does not add up: nobody posts the ante")
    if not any(kind is LineKind.SUMMARY for kind, _ in source.lines):
        raise HistoryRefused(f"{cut}, before its summary")
    if not source.total_pot_line[0]:
        raise HistoryRefused(f"{cut}: its summary has no 'Total pot' line")


def _button(source: PokerStarsHand) -> int:
    """The seat just before the first dealt: the dealer's (stud tables write no button)."""
    return source.seat_of(_deal_order(source)[-1])


def replay_hand(source: PokerStarsHand) -> Replay:
    """Replay the file through the engine, checking every step and the end; refused
    (``ReplayMismatch``, a ``HistoryRefused``, naming the line) at the first difference.
    Checks: the same player is asked to act; each action is offered with that amount (and a
    call adds what the file says, an all-in is one); the pot when each street closes; the
    cards dealt where the file shows them; the uncalled bets returned, the total pot and what
    each player collected. When the file leaves a showdown hand unshown, its cards are filled
    so that the file's winners win (at most ``FILLS`` tries)."""
    _check_complete(source)
    failure: HistoryRefused | None = None
    known = frozenset(_known_cards(source))
    for deck in stacked_decks(source):
        replay = _replay_with(source, deck, 0)
        if replay.hand.community_card != source.community_card:
            number = source.street_lines.get(7, 0)
            raise source.refused(
                number,
                source.lines[source.numbers.index(number)][1],
                "the deck deals everyone a river, not a shared card (R-DEAL-5)",
            )
        failure = _end_mismatch(source, replay, known)
        if failure is None:
            return replay
        if not _unknown_at_showdown(source):
            break
    if failure is None:
        raise HistoryRefused(f"{source.title} does not add up: no deal fits its showdown")
    raise failure


def _known_cards(source: PokerStarsHand) -> list[Card]:
    cards = [card for slots in source.cards.values() for card in slots if card is not None]
    if source.community_card is not None:
        cards.append(source.community_card)
    return cards


def _offers_text(source: PokerStarsHand, offers: list[LegalAction]) -> str:
    words = {
        ActionKind.FOLD: "fold", ActionKind.CHECK: "check", ActionKind.CALL: "call",
        ActionKind.BRING_IN: "bring in for", ActionKind.COMPLETE: "complete to",
        ActionKind.BET: "bet", ActionKind.RAISE: "raise to",
    }  # fmt: skip
    said = []
    for offer in offers:
        if offer.kind in (ActionKind.FOLD, ActionKind.CHECK):
            said.append(words[offer.kind])
        elif offer.kind is ActionKind.CALL:
            said.append(f"call {source.amount(offer.adds)}")
        else:
            said.append(f"{words[offer.kind]} {source.amount(offer.amount)}")
    return ", ".join(said)


def _replay_with(source: PokerStarsHand, deck: list[Card], reshuffle_seed: int) -> Replay:
    config = game_config(source)
    # R-SHOW-3: a player who showed a losing hand in the file had auto-muck off
    showed = {line.player for line in source.showdown if line.kind is LineKind.SHOWS}
    seats = [
        SeatSetup(seat=s.seat, name=s.player, stack=s.stack, auto_muck=s.player not in showed)
        for s in source.dealt_in
    ]
    button = _button(source)
    try:
        hand, events = StudHand.start(config, seats, deck, button, reshuffle_seed=reshuffle_seed)
    except ValueError as error:
        raise ReplayMismatch(f"{source.title} does not add up: {error}") from None
    all_events = list(events)
    expected_pots = file_pots_after_street(source)
    pots: dict[int, int] = {}
    street = 3
    put_in: dict[str, int] = {}
    completed = False
    unread = list(source.unread)

    def name(seat: int | None) -> str:
        return "nobody" if seat is None else f"{source.player_at(seat)} (seat {seat})"

    for line in source.actions:
        if line.street != street:
            pots[street] = hand.pot
            if hand.pot != expected_pots[street]:
                number = source.street_lines[line.street]
                raise source.refused(
                    number,
                    source.lines[source.numbers.index(number)][1],
                    f"the pot is {source.amount(hand.pot)} when {_STREET_WORDS[street]} closes, "
                    f"and the file's bets make it {source.amount(expected_pots[street])}",
                )
            street, put_in, completed = line.street, {}, False
            if hand.street != street:
                why = (
                    "the hand is over"
                    if hand.is_over
                    else f"{_STREET_WORDS[hand.street]} is still being bet "
                    f"({name(hand.to_act)} to act)"
                )
                raise source.refused(line.line, line.text, why)
        seat = source.seat_of(line.player)
        if hand.to_act != seat:
            why = (
                "the hand is already over"
                if hand.is_over
                else f"it is {name(hand.to_act)}'s turn, not {line.player}'s"
            )
            skipped = [(n, text) for n, text in unread if n < line.line]
            if skipped:
                why += f" (line {skipped[-1][0]}, {skipped[-1][1]!r}, is not an action)"
            raise source.refused(line.line, line.text, why)
        before = put_in.get(line.player, 0)
        kind, to = _expected_action(line, before, completed)
        legal = hand.legal_actions(seat)
        # a bet or raise to what completes a short bet (a bring-in, an all-in for less) is
        # the engine's completion
        kinds = {kind, ActionKind.COMPLETE} if kind in _AGGRESSIVE else {kind}
        offer = next((o for o in legal if o.kind in kinds and o.amount == to), None)
        if offer is None:
            raise source.refused(
                line.line,
                line.text,
                f"the rules offer {line.player}: {_offers_text(source, legal)}",
            )
        if line.kind is LineKind.CALL and offer.adds != line.amount:
            raise source.refused(
                line.line,
                line.text,
                f"{line.player}'s call adds {source.amount(offer.adds)}",
            )
        if kind in (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE):
            completed = True
        if kind not in (ActionKind.CHECK, ActionKind.FOLD):
            put_in[line.player] = to
        hand, events = hand.apply(offer.for_seat(seat))
        all_events.extend(events)
        acted = next(e.payload for e in events if e.kind == "action" and e.payload["seat"] == seat)
        if line.all_in and not acted["all_in"]:
            behind = acted["stack"]
            assert isinstance(behind, int)
            raise source.refused(
                line.line, line.text, f"{line.player} is not all-in: {source.amount(behind)} behind"
            )
    pots[street] = hand.pot if not hand.is_over else expected_pots.get(street, 0)
    if not hand.is_over:
        last = source.actions[-1] if source.actions else None
        where = (
            f"line {last.line} ({last.text!r})"
            if last
            else f"line {source.street_lines[3]} ('*** 3rd STREET ***')"
        )
        raise ReplayMismatch(
            f"{source.title} does not add up: its actions end at {where}, but the hand is "
            f"not over: it is {name(hand.to_act)}'s turn on {_STREET_WORDS[hand.street]}"
        )
    if not any(kind is LineKind.SHOW_DOWN for kind, _ in source.lines):
        # R-SHOW-3: a winner nobody called chose to show
        for shown in source.showdown:
            if shown.kind is LineKind.SHOWS:
                seat = source.seat_of(shown.player)
                if not hand.may_show(seat):
                    raise ReplayMismatch(
                        f"{source.title} does not add up: {shown.player} shows, but "
                        "only a winner nobody called may show without a showdown"
                    )
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


def _end_mismatch(
    source: PokerStarsHand, replay: Replay, known: frozenset[Card]
) -> HistoryRefused | None:
    """What the file's summary says that the engine's result does not: None when it all
    adds up. The uncalled bets and the pot do not hang on the cards, so a difference there is
    refused at once (raised); who collected what may, and is returned for another fill."""
    result = replay.hand.result
    assert result is not None
    ours = sorted((source.player_at(seat), back) for seat, back in result.uncalled)
    theirs = sorted(source.uncalled)
    if ours != theirs:
        number, text = source.uncalled_lines[0] if source.uncalled_lines else source.total_pot_line
        said = ", ".join(f"{source.amount(b)} to {p}" for p, b in ours) or "nothing"
        raise source.refused(number, text, f"the uncalled bets returned are {said}")
    total = sum(pot.amount for pot in result.pots)
    if total != source.total_pot or result.rake != source.rake:
        number, text = source.total_pot_line
        raise source.refused(
            number,
            text,
            f"the bets make a pot of {source.amount(total)} (rake {source.amount(result.rake)})",
        )
    won = {source.player_at(seat): result.won(seat) for seat in replay.hand.seats}
    file_won = source.winnings()
    for player, amount in won.items():
        if amount == file_won.get(player, 0):
            continue
        lines = [c for c in source.collected if c.player == player]
        number, text = (lines[0].line, lines[0].text) if lines else source.total_pot_line
        return source.refused(
            number,
            text,
            f"the pots give {player} {source.amount(amount)}"
            + ("" if lines else ", and the file has them collect nothing"),
        )
    file_shows = {line.player for line in source.showdown if line.kind is LineKind.SHOWS}
    file_shows |= {p for p, result in source.seat_results.items() if result.startswith("showed")}
    shown = [*result.shown, *replay.hand.shown_by_choice]
    if any(
        source.player_at(seat) not in file_shows and not set(cards) <= known
        for seat, cards in shown
    ):
        return HistoryRefused(
            f"{source.title} does not add up: a hand the file never shows would win at the showdown"
        )
    return None


# --- a file ---------------------------------------------------------------------------------


def read_pokerstars(text: str) -> list[ReadHand | Refusal]:
    """Every hand of a PokerStars text file, replayed and checked: a ``ReadHand`` for each
    that adds up, a ``Refusal`` (with the line that fails) for each that does not."""
    read: list[ReadHand | Refusal] = []
    for first_line, hand_text in split_hands(text):
        title = f"The hand at line {first_line}"
        try:
            source = parse_hand(hand_text, first_line)
            title = source.title
            if source.damaged:  # the test data's 91733835979: "Dealt to Hero [...] [of]"
                number, line = source.damaged[0]
                raise source.refused(number, line, "a card in brackets is not a card")
            replay = replay_hand(source)
        except HistoryRefused as refused:
            read.append(
                Refusal(
                    title=title,
                    first_line=first_line,
                    message=str(refused),
                    other_game=isinstance(refused, NotStud),
                )
            )
            continue
        hero = source.seat_of(source.hero) if source.hero else None
        read.append(
            ReadHand(
                format="pokerstars",
                title=title,
                source=hand_text,
                first_line=first_line,
                hand=replay.hand,
                known=frozenset(_known_cards(source)),
                hero_seat=hero,
                table_name=source.table_name,
                started_at=source.started_at,
                chips=not source.dollars,
                seat_count=max(source.max_seats, *(seat.seat for seat in source.seats)),
            )
        )
    return read
