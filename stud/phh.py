"""A finished hand in the Poker Hand History format (PHH, uoftcprg/phh-std: TOML).

The variant is the game's PHH code (``F7S``, ``F7S/8``, ``FR``: stud/variant.py). Players are
listed in the order of the deal (``p1`` nearest the dealer's left), ``seats`` giving their table
seats. Actions are the standard's: ``d dh pN CARDS`` for cards dealt to a player (third street's
two down cards and the door in one line, then one a street), ``d db CARD`` for a community card
(R-DEAL-5), ``pN pb`` the bring-in, ``pN f`` / ``pN cc`` / ``pN cbr TO`` fold, check or call,
and complete, bet or raise to an amount (the street's total, as our actions say), ``pN sm
CARDS`` a hand shown at showdown and ``pN sm`` one mucked. What the viewer may see decides the
cards written (R-HIST-2): another player's down cards are ``??`` unless shown. The room's own
facts go in user-defined fields (keys beginning with ``_``, as the standard asks).
"""

from __future__ import annotations

import itertools
import json
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass

from stud.actions import Abandon, Action, ActionKind, IllegalAction, Show, TimeOut
from stud.cards import Card, card_text, parse_card
from stud.config import GameConfig, OddChip, SeatSetup
from stud.dealing import deal_positions
from stud.hand import StudHand
from stud.rake import RakeSchedule, RakeTier
from stud.read_hand import (
    HistoryRefused,
    ReadHand,
    Refusal,
    deal_slots,
    filled_decks,
    shows_only_known,
)
from stud.variant import VARIANTS

ALL_DOWN_CARDS = "all"
Viewer = int | str | None  # a seat, ALL_DOWN_CARDS (staff, the emailed copy), or None


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")


def _cards(cards: Iterable[Card | None]) -> str:
    return "".join("??" if card is None else card_text(card) for card in cards)


class _PhhWriter:
    def __init__(self, final: StudHand, viewer: Viewer) -> None:
        assert final.result is not None
        self.final = final
        self.result = final.result
        self.viewer = viewer
        self.label = {p.seat: f"p{i + 1}" for i, p in enumerate(final.players)}
        self.shown = {seat for seat, _ in self.result.shown}
        self.shown |= {seat for seat in final.volunteered}

    def sees(self, seat: int) -> bool:
        return self.viewer == ALL_DOWN_CARDS or self.viewer == seat or seat in self.shown

    def down(self, seat: int, card: Card) -> Card | None:
        return card if self.sees(seat) else None

    def actions(self) -> list[str]:
        final = self.final
        hand, _ = StudHand.start(
            final.config, final.players, final.deck, final.button,
            reshuffle_seed=final.reshuffle_seed,
        )  # fmt: skip
        lines = []
        for seat in hand.seats:
            first, second = hand.down_cards(seat)
            door = hand.up_cards(seat)[0]
            cards = _cards((self.down(seat, first), self.down(seat, second), door))
            lines.append(f"d dh {self.label[seat]} {cards}")
        street = 3
        for record in final.log:
            before = hand
            if isinstance(record, Action):
                lines.append(self.action_line(before, record))
                hand, _ = hand.apply(record)
            elif isinstance(record, TimeOut):
                offers = {offer.kind: offer for offer in before.legal_actions(record.seat)}
                hand, _ = hand.time_out(record.seat, record.protected)
                label = self.label[record.seat]
                if ActionKind.BRING_IN in offers:
                    lines.append(f"{label} pb # timed out")
                elif ActionKind.CHECK in offers:
                    lines.append(f"{label} cc # timed out")
                elif hand.status_of(record.seat) == "folded":
                    lines.append(f"{label} f # timed out")
                else:  # R-TIME-1's all-in protection has no PHH action: said as a comment
                    lines.append(f"# {label} timed out: all-in protection (R-TIME-1)")
            elif isinstance(record, Abandon):
                if before.bring_in_due and before.to_act == record.seat:
                    lines.append(f"{self.label[record.seat]} pb")
                lines.append(f"{self.label[record.seat]} f # left the table")
                hand, _ = hand.abandon(record.seat)
            elif isinstance(record, Show):
                continue  # shown after the hand: its cards are written at the end
            while street < hand.street:
                street += 1
                lines.extend(self.dealt(hand, street))
        lines.extend(self.showdown())
        return lines

    def action_line(self, hand: StudHand, action: Action) -> str:
        label = self.label[action.seat]
        kind = action.kind
        if kind is ActionKind.BRING_IN:
            return f"{label} pb"
        if kind is ActionKind.FOLD:
            return f"{label} f"
        if kind in (ActionKind.CHECK, ActionKind.CALL):
            return f"{label} cc"
        return f"{label} cbr {action.amount}"

    def dealt(self, hand: StudHand, street: int) -> list[str]:
        lines = []
        final = self.final
        if street == 7 and final.community_card is not None:
            return [f"d db {card_text(final.community_card)}"]
        for seat in hand.seats:
            if hand.status_of(seat) == "folded":
                continue
            if street < 7:
                card: Card | None = final.up_cards(seat)[street - 3]
            else:
                card = self.down(seat, final.down_cards(seat)[2])
            lines.append(f"d dh {self.label[seat]} {_cards([card])}")
        return lines

    def showdown(self) -> list[str]:
        result = self.result
        lines = []
        if result.showdown:
            shown = dict(result.shown)
            for seat in result.show_order:
                if seat in shown:
                    lines.append(f"{self.label[seat]} sm {_cards(self.final.cards(seat))}")
                else:
                    lines.append(f"{self.label[seat]} sm")
        for seat in self.final.volunteered:
            lines.append(f"# {self.label[seat]} shows {_cards(self.final.cards(seat))}")
        return lines


def render_phh(
    hand: StudHand,
    *,
    hand_id: int | str,
    table_name: str,
    viewer: Viewer = None,
    started_at: tuple[int, int, int] | None = None,  # (year, month, day)
    currency: str | None = "USD",
    extra: dict[str, object] | None = None,
) -> str:
    """The finished ``hand`` as PHH text (TOML). ``viewer`` decides whose down cards are
    written (R-HIST-2); ``extra``: more user-defined fields (keys without the ``_``)."""
    if hand.result is None:
        raise ValueError("only a finished hand has a history")
    config = hand.config
    variant = config.variant
    writer = _PhhWriter(hand, viewer)
    players = hand.players
    fields: dict[str, object] = {
        "variant": variant.phh_code,
        "ante_trimming_status": True,
        "antes": [
            config.ante if not config.dealer_only_ante or i == len(players) - 1 else 0
            for i in range(len(players))
        ],
        "bring_in": min(config.bring_in, config.small_bet),
        "small_bet": config.small_bet,
        "big_bet": config.big_bet,
        "starting_stacks": [p.stack for p in players],
        "actions": writer.actions(),
        "hand": hand_id,
        "table": table_name,
        "seats": [p.seat for p in players],
        "seat_count": 8,
        "players": [p.name for p in players],
        "finishing_stacks": [stack for _, stack in _in_deal_order(hand)],
    }
    if currency:
        fields["currency"] = currency
    if started_at is not None:
        fields["year"], fields["month"], fields["day"] = started_at
        fields["time_zone"] = "America/New_York"
    room: dict[str, object] = {
        "game": config.game.value,
        "button": hand.button,
        "rake": hand.result.rake,
        "odd_chip": config.odd_chip.value,
        "max_raises": config.max_raises,
        "heads_up_raises": -1 if config.heads_up_raises is None else config.heads_up_raises,
        "dealer_only_ante": config.dealer_only_ante,
        **(extra or {}),
    }
    lines = []
    for key, value in fields.items():
        if key == "actions":
            body = "".join(f"  {_toml_value(line)},\n" for line in value)  # type: ignore[attr-defined]
            lines.append(f"actions = [\n{body}]")
        else:
            lines.append(f"{key} = {_toml_value(value)}")
    lines.extend(f"_{key} = {_toml_value(value)}" for key, value in room.items())
    return "\n".join(lines) + "\n"


def _in_deal_order(hand: StudHand) -> list[tuple[int, int]]:
    assert hand.result is not None
    stacks = dict(hand.result.final_stacks)
    return [(p.seat, stacks[p.seat]) for p in hand.players]


# --- PHH in -------------------------------------------------------------------------------


class PhhRefused(HistoryRefused):
    """A PHH file that does not add up: the message names the line that fails."""


_GAME_BY_PHH_CODE = {variant.phh_code: variant.game for variant in VARIANTS.values()}
# How many ways of filling the cards the file does not name are replayed (only a showdown
# with mucked hands may need more than one).
FILLS = 10


def _phh_cards(text: str) -> list[Card | None]:
    if len(text) % 2:
        raise ValueError(f"not cards: {text!r}")
    return [
        None if text[i : i + 2] == "??" else parse_card(text[i : i + 2])
        for i in range(0, len(text), 2)
    ]


def _whole(value: object, key: str) -> int:
    """A chip count: a whole number (TOML 100 or 100.0), never a fraction nor a word."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{key} must be a number, not {value!r}")
    if value != int(value) or value < 0:
        raise ValueError(f"{key} must be a whole number of chips, not {value!r}")
    return int(value)


def _key_line(lines: list[str], key: str, start: int = 0) -> int:
    """The number (from 1) of the line that sets ``key``, from line ``start`` on; 0: none."""
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
    return next((n + 1 for n in range(start, len(lines)) if pattern.match(lines[n])), 0)


def _action_lines(lines: list[str], actions: list[str], first: int) -> list[int]:
    """The file's line number (from ``first`` for the text's first line) of each action, as
    written one a line (ours, PokerKit's); 0 where it cannot be told."""
    found = []
    at = _key_line(lines, "actions")
    for action in actions:
        quoted = (json.dumps(action, ensure_ascii=False), f"'{action}'")
        n = at - 1 if at else len(lines)
        while n < len(lines) and not any(q in lines[n] for q in quoted):
            n += 1
        if n < len(lines):
            found.append(n + first)
            at = n + 1
        else:
            found.append(0)
    return found


def read_phh(text: str) -> StudHand:
    """A PHH stud hand (F7S, F7S/8, FR) replayed by our engine (``read_phh_file``'s checks);
    ``PhhRefused`` naming the line when it does not add up."""
    read = read_phh_file(text)
    if len(read) != 1:
        raise PhhRefused(f"one hand expected, the file holds {len(read)}")
    if isinstance(read[0], Refusal):
        raise PhhRefused(read[0].message)
    return read[0].hand


def read_phh_file(text: str, *, max_hands: int | None = None) -> list[ReadHand | Refusal]:
    """The hands of a PHH file (one hand, or a ``.phhs`` file of several, each a TOML table
    ``[name]``), each parsed and replayed by our engine, every action checked against the
    rules as it is applied and the final stacks compared with ``finishing_stacks`` when the
    file gives them: a ``ReadHand`` for each that adds up, a ``Refusal`` (naming the line
    that fails) for each that does not. Unknown cards (``??``) are filled from the cards no
    line names (or from a showdown's shown hand), a mucked hand's as weak as they can be."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PhhRefused(f"not a PHH (TOML) file: {error}") from None
    lines = text.split("\n")
    if "variant" in data or not data or not all(isinstance(v, dict) for v in data.values()):
        parts = [("", data, text, 1)]
    else:  # a .phhs file: [1], [2], ... each a hand
        parts = []
        for name, hand_data in data.items():
            header = re.compile(rf"^\s*\[\s*(?:{re.escape(name)}|\"{re.escape(name)}\")\s*\]")
            start = next((n for n, line in enumerate(lines) if header.match(line)), 0)
            end = next(
                (n for n in range(start + 1, len(lines)) if re.match(r"^\s*\[", lines[n])),
                len(lines),
            )
            parts.append((name, hand_data, "\n".join(lines[start + 1 : end]) + "\n", start + 2))
    if max_hands is not None and len(parts) > max_hands:
        raise HistoryRefused(
            f"The file holds {len(parts)} hands: open at most {max_hands} at a time."
        )
    read: list[ReadHand | Refusal] = []
    for name, hand_data, source, first_line in parts:
        number = hand_data.get("hand", name) if isinstance(hand_data, dict) else name
        title = f"PHH hand {number}".rstrip()
        try:
            read.append(_read_hand(hand_data, source, first_line, title))
        except PhhRefused as refused:
            read.append(Refusal(title=title, first_line=first_line, message=str(refused)))
    return read


@dataclass
class _Dealt:
    """What the file's ``d dh`` / ``d db`` lines deal: each player's cards in the order dealt
    (None for ``??``), the players dealt on streets 4 to 7, the community card."""

    cards: list[list[Card | None]]
    streets: dict[int, list[int]]  # street -> players (0-based) in the order of their lines
    community: Card | None = None


def _dealt(actions: list[str], numbers: list[int], count: int, title: str) -> _Dealt:
    dealt = _Dealt(cards=[[] for _ in range(count)], streets={})
    for line, number in zip(actions, numbers, strict=True):
        words = line.split("#", 1)[0].split()
        where = f"{title}, line {number} ({line!r}) does not add up"
        try:
            if words[:2] == ["d", "dh"]:
                player = int(words[2][1:]) - 1
                if not 0 <= player < count:
                    raise ValueError(f"there is no {words[2]}")
                cards = _phh_cards(words[3])
                held = dealt.cards[player]
                if not held:
                    if len(cards) != 3:
                        raise ValueError("third street deals three cards")
                    if cards[2] is None:
                        raise ValueError("the door card is dealt face up: ?? is a down card")
                else:
                    if len(cards) != 1:
                        raise ValueError("a later street deals one card")
                    street = len(held) + 1  # 3 cards held: this is the 4th street's
                    if street > 7:
                        raise ValueError("a player is dealt more than seven cards")
                    if street < 7 and cards[0] is None:
                        raise ValueError(
                            f"street {street}'s card is dealt face up: ?? is a down card"
                        )
                    dealt.streets.setdefault(street, []).append(player)
                held.extend(cards)
            elif words[:2] == ["d", "db"]:
                cards = _phh_cards(words[2])
                if len(cards) != 1 or cards[0] is None or dealt.community is not None:
                    raise ValueError("a stud hand turns at most one community card (R-DEAL-5)")
                dealt.community = cards[0]
                dealt.streets.setdefault(7, [])
        except (ValueError, IndexError) as error:
            raise PhhRefused(f"{where}: {error}") from None
    return dealt


def _read_hand(data: dict[str, object], text: str, first_line: int, title: str) -> ReadHand:
    lines = text.split("\n")

    def header_error(why: str, key: str | None = None) -> PhhRefused:
        number = _key_line(lines, key) if key else 0
        where = f", line {number + first_line - 1}" if number else ""
        return PhhRefused(f"{title}{where}: {why}")

    try:
        variant = str(data["variant"])
        if variant not in _GAME_BY_PHH_CODE:
            raise header_error(
                f"variant {variant!r} is not a stud game (F7S, F7S/8 or FR)", "variant"
            )
        game = _GAME_BY_PHH_CODE[variant]
        antes = [_whole(a, "antes") for a in _list(data["antes"], "antes")]
        stacks = [_whole(s, "starting_stacks") for s in _list(data["starting_stacks"], "stacks")]
        actions = [str(a) for a in _list(data["actions"], "actions")]
        count = len(stacks)
        seats = [_whole(s, "seats") for s in _list(data.get("seats", range(1, count + 1)), "seats")]
        names = [
            str(n)
            for n in _list(data.get("players", [f"p{i + 1}" for i in range(count)]), "players")
        ]
        finishing_data = data.get("finishing_stacks")
        finishing = (
            None
            if finishing_data is None
            else [_whole(f, "finishing_stacks") for f in _list(finishing_data, "finishing")]
        )
        rake = (
            _whole(data["_rake"], "_rake")
            if "_rake" in data
            else max(0, sum(stacks) - sum(finishing))
            if finishing is not None
            else 0
        )
        heads_up = int(str(data.get("_heads_up_raises", -1)))
        config = GameConfig(
            game=game,
            small_bet=_whole(data["small_bet"], "small_bet"),
            big_bet=_whole(data["big_bet"], "big_bet"),
            ante=max(antes, default=0),
            bring_in=_whole(data["bring_in"], "bring_in"),
            heads_up_raises=None if heads_up < 0 else heads_up,
            max_raises=int(str(data.get("_max_raises", 3))),
            dealer_only_ante=bool(data.get("_dealer_only_ante", False)),
            odd_chip=OddChip(str(data.get("_odd_chip", OddChip.HIGH_CARD_BY_SUIT.value))),
            rake=None
            if rake == 0
            else RakeSchedule((RakeTier(1, None, cap=rake, amount=rake, thresholds=(1,)),)),
        )
    except PhhRefused:
        raise
    except KeyError as missing:
        raise header_error(f"a stud PHH file needs {missing}") from None
    except (TypeError, ValueError) as error:
        raise header_error(f"the file's header does not add up: {error}") from None
    if not (len(antes) == len(seats) == len(names) == count) or count < 2:
        raise header_error(
            "antes, seats, players and starting_stacks must name the same players (two or more)"
        )
    if len(set(seats)) != count:
        raise header_error("a seat is listed twice", "seats")
    numbers = [n + first_line - 1 if n else 0 for n in _action_lines(lines, actions, 1)]
    dealt = _dealt(actions, numbers, count, title)
    shown = _shown(actions)
    for player, cards in shown.items():
        held = dealt.cards[player]
        for k, card in enumerate(cards[: len(held)]):
            if held[k] is None:
                held[k] = card
            elif card is not None and held[k] != card:
                raise PhhRefused(
                    f"{title}: p{player + 1} shows {card_text(card)} but was dealt another card"
                )
    order = list(range(count))
    deal, slots = deal_slots(
        [seats[p] for p in order],
        [
            (street, [seats[p] for p in players])
            for street, players in sorted(dealt.streets.items())
        ],
        lambda seat, index: _card_at(dealt.cards[seats.index(seat)], index),
        dealt.community,
    )
    if deal.river == "community" and dealt.community is None:
        raise PhhRefused(
            f"{title} does not add up: the river is one shared card (R-DEAL-5), "
            "and no 'd db' line turns it"
        )
    known = frozenset(card for card in slots if card is not None)
    mucked = [p for p, cards in _mucked(actions) if p < count]
    community = [pos for slot, pos in deal_positions(deal) if slot.face == "community"]
    losers = [
        [pos for slot, pos in deal_positions(deal) if slot.seat == seats[p]] + community
        for p in mucked
        if any(card is None for card in dealt.cards[p])
    ]
    players = [
        SeatSetup(seat, name, stack, auto_muck=i not in shown)
        for i, (seat, name, stack) in enumerate(zip(seats, names, stacks, strict=True))
    ]
    failure: PhhRefused | None = None
    decks = filled_decks(slots, tries=FILLS if losers else 1, game=game, losers=losers)
    try:
        first_deck = next(decks)
    except HistoryRefused as refused:
        raise PhhRefused(f"{title} does not add up: {refused}") from None
    for deck in itertools.chain([first_deck], decks):
        hand = _replay(config, players, deck, seats, actions, numbers, title)
        assert hand.result is not None
        ours = dict(hand.result.final_stacks)
        if finishing is not None and [ours[seat] for seat in seats] != finishing:
            number = _key_line(lines, "finishing_stacks")
            failure = PhhRefused(
                f"{title}, line {number + first_line - 1 if number else '?'} "
                f"('finishing_stacks = {finishing}') does not add up: the actions end at "
                f"{[ours[seat] for seat in seats]}"
            )
        elif hand.community_card != dealt.community:
            raise PhhRefused(
                f"{title} does not add up: a community card (R-DEAL-5), but the deck deals "
                "everyone a river"
            )
        elif not shows_only_known(hand, known):
            failure = PhhRefused(
                f"{title} does not add up: a hand the file mucks would win at the showdown"
            )
        else:
            hero = [seat for seat in seats if all(c in known for c in hand.down_cards(seat))]
            currency = str(data.get("currency", ""))
            year, month, day = (data.get(key) for key in ("year", "month", "day"))
            return ReadHand(
                format="phh",
                title=title,
                source=text,
                first_line=first_line,
                hand=hand,
                known=known,
                hero_seat=hero[0] if len(hero) == 1 and count > 1 else None,
                table_name=str(data.get("table", "")),
                started_at=f"{year}/{month:02}/{day:02}"
                if isinstance(year, int) and isinstance(month, int) and isinstance(day, int)
                else "",
                chips=not ("_game" in data and currency == "USD"),
                seat_count=max(_whole(data.get("seat_count", 8), "seat_count"), *seats),
            )
        if not losers:
            break
    assert failure is not None
    raise failure


def _list(value: object, key: str) -> list[object]:
    if isinstance(value, list | tuple | range):
        return list(value)
    raise ValueError(f"{key} must be a list")


def _card_at(cards: list[Card | None], index: int) -> Card | None:
    return cards[index] if index < len(cards) else None


def _shown(actions: list[str]) -> dict[int, list[Card | None]]:
    """The hands shown at showdown (``pN sm CARDS``), by player (0-based)."""
    shown = {}
    for line in actions:
        words = line.split("#", 1)[0].split()
        if len(words) == 3 and words[1] == "sm" and words[2] != "-" and words[0][1:].isdigit():
            try:
                shown[int(words[0][1:]) - 1] = _phh_cards(words[2])
            except ValueError:
                continue  # refused when the line is replayed
    return shown


def _mucked(actions: list[str]) -> list[tuple[int, None]]:
    """The players who muck at showdown (``pN sm`` with no cards)."""
    mucked = []
    for line in actions:
        words = line.split("#", 1)[0].split()
        if len(words) == 2 and words[1] == "sm" and words[0][1:].isdigit():
            mucked.append((int(words[0][1:]) - 1, None))
    return mucked


def _replay(
    config: GameConfig,
    players: list[SeatSetup],
    deck: list[Card],
    seats: list[int],
    actions: list[str],
    numbers: list[int],
    title: str,
) -> StudHand:
    try:
        hand, _ = StudHand.start(config, players, deck, button=seats[-1])
    except ValueError as error:
        raise PhhRefused(f"{title}: the deal does not add up: {error}") from None
    if [p.seat for p in hand.players] != seats:
        raise PhhRefused(f"{title}: seats must be listed in the order of the deal, the dealer last")
    last = ""
    for line, number in zip(actions, numbers, strict=True):
        words = line.split("#", 1)[0].split()
        if len(words) < 2 or words[0] == "d":
            continue
        where = f"line {number}" if number else "the line"
        try:
            hand = _apply_phh_action(hand, words, seats)
        except (IllegalAction, ValueError, IndexError) as error:
            raise PhhRefused(f"{title}, {where} ({line!r}) does not add up: {error}") from None
        last = f"{where} ({line!r})"
    if not hand.is_over:
        to_act = hand.to_act
        who = "" if to_act is None else f": it is p{seats.index(to_act) + 1}'s turn"
        raise PhhRefused(
            f"{title} does not add up: the actions end{f' at {last}' if last else ''} before "
            f"the hand does{who}"
        )
    return hand


def _apply_phh_action(hand: StudHand, words: list[str], seats: list[int]) -> StudHand:
    seat = seats[int(words[0][1:]) - 1]
    verb = words[1]
    if verb == "sm":
        return hand  # the engine shows and mucks by the rules (R-SHOW-3)
    offers = {offer.kind: offer for offer in hand.legal_actions(seat)}
    if not offers:
        raise IllegalAction(f"it is not {words[0]}'s turn")
    if verb == "pb":
        kind, amount = (
            ActionKind.BRING_IN,
            offers[ActionKind.BRING_IN].amount if ActionKind.BRING_IN in offers else -1,
        )
    elif verb == "f":
        kind, amount = ActionKind.FOLD, 0
    elif verb == "cc":
        kind = ActionKind.CHECK if ActionKind.CHECK in offers else ActionKind.CALL
        amount = offers[kind].amount if kind in offers else 0
    elif verb == "cbr":
        to = int(words[2])
        kinds = [k for k in (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE) if k in offers]
        if not kinds:
            raise IllegalAction("no bet, raise or completion is offered")
        kind, amount = kinds[0], to
    else:
        raise ValueError(f"unknown action {verb!r}")
    hand, _ = hand.apply(Action(seat, kind, amount))
    return hand
