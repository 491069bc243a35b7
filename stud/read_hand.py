"""A hand read back from a history file (PHH or PokerStars text), replayed and checked.

Both readers (``stud.phh.read_phh_file``, ``stud.pokerstars_in.read_pokerstars``) give a
``ReadHand``: the engine's finished hand, which the file's every action was applied to, and
what the file said of its cards. A file says only some of the cards (a player's own down
cards, the up cards, the hands shown); the readers fill the others from the cards it never
names, chosen so that they change nothing the file says (who wins what), and they are never
shown: ``events(read)`` holds a seat's down cards only when the file named them all, and
every card a ``show`` event names is one the file named (R-HIST-2: nothing is invented).

A hand that does not add up is refused (``HistoryRefused``) with the line that fails.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from stud.actions import Abandon, Action, Event, TimeOut
from stud.cards import Card, card_text
from stud.config import Game
from stud.dealing import DECK_SIZE, Deal, deal_positions
from stud.evaluate import high_rank, low8_rank, razz_rank
from stud.hand import StudHand


class HistoryRefused(ValueError):
    """A history that does not add up; the message names the hand and the line that fails."""


@dataclass(frozen=True)
class ReadHand:
    """One hand of a history file, replayed by the engine and checked against the file."""

    format: str  # "pokerstars" or "phh"
    title: str  # how the file names it: "PokerStars Hand #35874004239", "PHH hand 7"
    source: str  # the hand's own text: what "Keep in my account" stores
    first_line: int  # where it begins in the file, from 1
    hand: StudHand  # finished
    known: frozenset[Card]  # the cards the file names (the others were filled in)
    hero_seat: int | None  # whose down cards the file gives ("Dealt to Hero [..]"), if one
    table_name: str = ""
    started_at: str = ""
    chips: bool = False  # amounts are chips (a tournament, or no currency), not cents
    seat_count: int = 8  # the table's seats ("8-max")


@dataclass(frozen=True)
class Refusal:
    """One hand of a file that does not add up."""

    title: str
    first_line: int
    message: str
    other_game: bool = False  # a hand of another game (Hold'em...) in a mixed file: left out


def river_kind(players: int, streets: Sequence[tuple[int, Sequence[int]]]) -> str:
    """How the engine deals the river to the players of ``streets``' 7th street (R-DEAL-5):
    ``"down"`` from the stub, ``"reshuffle"`` (the burns and the stub shuffled, a down card
    each from the pile) or ``"community"`` (one card from the pile for everyone); ``"none"``
    without a 7th street."""
    position = 3 * players
    for street, seats in streets:
        position += 1  # the burn
        if street < 7:
            position += len(seats)
            continue
        if DECK_SIZE - position >= len(seats):
            return "down"
        burns = sum(1 for _ in streets)
        return "reshuffle" if burns + DECK_SIZE - position >= len(seats) else "community"
    return "none"


def deal_slots(
    order: Sequence[int],
    streets: Sequence[tuple[int, Sequence[int]]],
    cards_of: Callable[[int, int], Card | None],
    community: Card | None,
) -> tuple[Deal, list[Card | None]]:
    """The deal of a hand read from a file and the 52 places of its deck, each holding the
    card the file names there or None: ``order`` the seats from the dealer's left, ``streets``
    (street, seats dealt) for streets 4 to 7, ``cards_of(seat, index)`` the file's card for a
    seat's card ``index`` (0, 1 down; 2..5 up; 6 the river), ``community`` the shared river
    card (R-DEAL-5; the caller checks that the engine turned it). The reshuffle seed is 0: any
    seed deals the file's cards, since the deck is built for it (``deal_positions``)."""
    river = "community" if community is not None else river_kind(len(order), streets)
    if river == "community":
        streets = [*streets[:-1], (7, ())]
    deal = Deal(tuple(order), tuple((s, tuple(seats)) for s, seats in streets), river, 0)
    slots: list[Card | None] = [None] * DECK_SIZE
    for slot, position in deal_positions(deal):
        if slot.face == "community":
            slots[position] = community
        elif slot.seat is not None:
            slots[position] = cards_of(slot.seat, slot.index)
    return deal, slots


def _strength(game: Game, cards: Sequence[Card]) -> tuple[int, ...]:
    """How good a hand of 5 to 7 cards is in ``game`` (larger better); fewer cards: by rank."""
    if len(cards) < 5:
        ranks = sorted((card >> 2 for card in cards), reverse=True)
        return (len(cards) - len(set(ranks)), *ranks) if game is not Game.RAZZ else tuple(ranks)
    if game is Game.RAZZ:
        return (razz_rank(cards),)
    if game is Game.STUD8:
        return (low8_rank(cards) is not None, high_rank(cards))
    return (high_rank(cards),)


def weakest_fill(
    slots: Sequence[Card | None], game: Game, losers: Sequence[Sequence[int]]
) -> list[Card | None]:
    """``slots`` with the unknown cards of the losers' hands (each the deck positions of one
    player's cards at the showdown) filled, one card at a time, with the spare card that
    leaves that hand the weakest: a hand the file says lost, and did not show, is filled so
    it loses (R-POT-2, R-HILO-1, R-RAZZ-1)."""
    filled = list(slots)
    named = set(filled)
    spare = [card for card in range(DECK_SIZE) if card not in named]
    for positions in losers:
        for position in positions:
            if filled[position] is not None:
                continue
            cards = [card for card in (filled[p] for p in positions) if card is not None]
            card = min(spare, key=lambda c: (_strength(game, [*cards, c]), c))
            spare.remove(card)
            filled[position] = card
    return filled


def filled_decks(
    slots: Sequence[Card | None],
    *,
    tries: int,
    game: Game = Game.STUD,
    losers: Sequence[Sequence[int]] = (),
) -> Iterator[list[Card]]:
    """52-card decks with ``slots``' known cards where they are and the unknown ones (None)
    filled from the cards no slot names: first with the ``losers``' hands as weak as the
    spare cards make them (``weakest_fill``), the rest in card order, so a reading is the same
    each time; then in another seeded order each time. Refused when a card is named twice."""
    named = [card for card in slots if card is not None]
    if len(set(named)) != len(named):
        twice = next(card for card in named if named.count(card) > 1)
        raise HistoryRefused(f"{card_text(twice)} is dealt twice")
    first = weakest_fill(slots, game, losers) if losers else list(slots)
    for attempt in range(tries):
        start = first if attempt == 0 else slots
        held = set(start)
        spare = [card for card in range(DECK_SIZE) if card not in held]
        if attempt:
            random.Random(attempt).shuffle(spare)
        cards = iter(spare)
        yield [card if card is not None else next(cards) for card in start]


def replay_events(hand: StudHand) -> list[Event]:
    """Every event of the finished ``hand`` (private ones included), replayed from its deal
    and its log, as the room's hand log records them."""
    state, events = StudHand.start(
        hand.config, hand.players, hand.deck, hand.button, reshuffle_seed=hand.reshuffle_seed
    )
    events = list(events)
    for record in hand.log:
        if isinstance(record, Action):
            state, more = state.apply(record)
        elif isinstance(record, TimeOut):
            state, more = state.time_out(record.seat, record.protected)
        elif isinstance(record, Abandon):
            state, more = state.abandon(record.seat)
        else:
            state, more = state.show_cards(record.seat)
        events.extend(more)
    return events


def shows_only_known(hand: StudHand, known: frozenset[Card]) -> bool:
    """Whether every hand the engine showed (at showdown or by choice) is one of known cards:
    a filled-in card is never shown."""
    assert hand.result is not None
    shown = [*hand.result.shown, *hand.shown_by_choice]
    return all(card in known for _, cards in shown for card in cards)


def seat_knowledge(read: ReadHand) -> set[int]:
    """The seats whose down cards the file names, every one (their private events are kept)."""
    hand = read.hand
    return {seat for seat in hand.seats if all(c in read.known for c in hand.down_cards(seat))}


def events(read: ReadHand) -> list[Event]:
    """The hand's events as the file lets them be seen: every public event, and a seat's own
    down cards only when the file named them all (the hero's, or every seat's in a PHH file
    written with all down cards)."""
    known_seats = seat_knowledge(read)
    return [
        event
        for event in replay_events(read.hand)
        if event.visible_to is None or event.visible_to in known_seats
    ]
