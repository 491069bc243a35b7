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

import json
import tomllib
from collections.abc import Iterable

from stud.actions import Abandon, Action, ActionKind, IllegalAction, Show, TimeOut
from stud.cards import Card, card_text, parse_card
from stud.config import GameConfig, SeatSetup
from stud.hand import StudHand
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


class PhhRefused(ValueError):
    """A PHH file that does not add up: the message names the line that fails."""


_GAME_BY_PHH_CODE = {variant.phh_code: variant.game for variant in VARIANTS.values()}


def _phh_cards(text: str) -> list[Card | None]:
    if len(text) % 2:
        raise ValueError(f"not cards: {text!r}")
    return [
        None if text[i : i + 2] == "??" else parse_card(text[i : i + 2])
        for i in range(0, len(text), 2)
    ]


def read_phh(text: str) -> StudHand:
    """A PHH stud hand (F7S, F7S/8, FR) replayed by our engine: parsed, every action checked
    against the rules as it is applied, the final stacks compared with ``finishing_stacks``
    when the file gives them. Refused (``PhhRefused``, naming the line) when it does not add
    up. Unknown cards (``??``) are filled from the cards no line names, or from a showdown's
    shown hand."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PhhRefused(f"not a PHH (TOML) file: {error}") from None
    try:
        game = _GAME_BY_PHH_CODE[str(data["variant"])]
        antes = [int(a) for a in data["antes"]]
        stacks = [int(s) for s in data["starting_stacks"]]
        actions = [str(a) for a in data["actions"]]
        count = len(stacks)
        seats = [int(s) for s in data.get("seats", range(1, count + 1))]
        names = [str(n) for n in data.get("players", [f"p{i + 1}" for i in range(count)])]
        config = GameConfig(
            game=game,
            small_bet=int(data["small_bet"]),
            big_bet=int(data["big_bet"]),
            ante=max(antes, default=0),
            bring_in=int(data["bring_in"]),
            heads_up_raises=None
            if int(data.get("_heads_up_raises", -1)) < 0
            else int(data["_heads_up_raises"]),
            max_raises=int(data.get("_max_raises", 3)),
            dealer_only_ante=bool(data.get("_dealer_only_ante", False)),
        )
    except KeyError as missing:
        raise PhhRefused(f"a stud PHH file needs {missing}") from None
    except (TypeError, ValueError) as error:
        raise PhhRefused(f"the file's header does not add up: {error}") from None
    if not (len(antes) == len(seats) == len(names) == count):
        raise PhhRefused("antes, seats, players and starting_stacks must name the same players")
    deck = _deck_from_actions(actions, count)
    players = [
        SeatSetup(seat, name, stack) for seat, name, stack in zip(seats, names, stacks, strict=True)
    ]
    try:
        hand, _ = StudHand.start(config, players, deck, button=seats[-1])
    except ValueError as error:
        raise PhhRefused(f"the deal does not add up: {error}") from None
    if [p.seat for p in hand.players] != seats:
        raise PhhRefused("seats must be listed in the order of the deal, the dealer last")
    for number, line in enumerate(actions, start=1):
        words = line.split("#", 1)[0].split()
        if len(words) < 2 or words[0] == "d":
            continue
        try:
            hand = _apply_phh_action(hand, words, seats)
        except (IllegalAction, ValueError, IndexError) as error:
            raise PhhRefused(f"line {number} ({line!r}) does not add up: {error}") from None
    if not hand.is_over:
        raise PhhRefused("the actions end before the hand does")
    finishing = data.get("finishing_stacks")
    assert hand.result is not None
    if finishing is not None:
        ours = dict(hand.result.final_stacks)
        if [ours[seat] for seat in seats] != [int(s) for s in finishing]:
            raise PhhRefused(
                f"finishing_stacks {list(finishing)} do not add up: the actions end at "
                f"{[ours[seat] for seat in seats]}"
            )
    return hand


def _deck_from_actions(actions: list[str], count: int) -> list[Card]:
    """The deck that deals what the ``d dh`` lines say, in our engine's order: third street
    (all first down cards, then the second, then the doors), then a burn and a card for each
    player still in, a street at a time. Unknown cards and burns are filled at the end: a
    shown hand's cards first, then the cards no line names."""
    slots: list[Card | None] = [None] * (3 * count)
    holes: list[list[int]] = [[] for _ in range(count)]  # each player's deck positions
    shown: dict[int, list[Card | None]] = {}
    street_open = False
    for number, line in enumerate(actions, start=1):
        words = line.split("#", 1)[0].split()
        try:
            if words[:2] == ["d", "dh"]:
                player = int(words[2][1:]) - 1
                cards = _phh_cards(words[3])
                if len(holes[player]) == 0:
                    if len(cards) != 3:
                        raise ValueError("third street deals three cards")
                    for k, card in enumerate(cards):
                        position = k * count + player
                        slots[position] = card
                        holes[player].append(position)
                    street_open = False
                else:
                    if len(cards) != 1:
                        raise ValueError("a later street deals one card")
                    if not street_open:
                        slots.append(None)  # the burn (R-DEAL-3)
                        street_open = True
                    holes[player].append(len(slots))
                    slots.append(cards[0])
            elif words[:2] == ["d", "db"]:
                raise PhhRefused(
                    f"line {number}: a community card (R-DEAL-5) cannot be replayed here"
                )
            elif words and words[0] != "d":
                street_open = False
                if len(words) == 3 and words[1] == "sm" and words[2] != "-":
                    shown[int(words[0][1:]) - 1] = _phh_cards(words[2])
        except PhhRefused:
            raise
        except (ValueError, IndexError) as error:
            raise PhhRefused(f"line {number} ({line!r}) does not add up: {error}") from None
    for player, cards in shown.items():
        for position, card in zip(holes[player], cards, strict=False):
            if slots[position] is None:
                slots[position] = card
            elif card is not None and slots[position] != card:
                raise PhhRefused(
                    f"p{player + 1} shows {card_text(card)} but was dealt another card"
                )
    named = [card for card in slots if card is not None]
    if len(set(named)) != len(named):
        raise PhhRefused("a card is dealt twice")
    spare = iter(card for card in range(52) if card not in set(named))
    deck = [card if card is not None else next(spare) for card in slots]
    deck.extend(spare)
    if len(deck) != 52:
        raise PhhRefused("more cards are dealt than a deck holds")
    return deck


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
