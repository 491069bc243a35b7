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
from collections.abc import Iterable

from stud.actions import Abandon, Action, ActionKind, Show, TimeOut
from stud.cards import Card, card_text
from stud.hand import StudHand

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
