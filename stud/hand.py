"""One hand of Seven Card Stud or Stud Hi/Lo as a value: ``StudHand``.

``StudHand.start`` posts the antes, deals third street and names the bring-in; ``apply`` and
``time_out`` return a new hand and the events, never changing the old one. Players are held in
the order of the deal (index 0 = nearest the dealer's left), so "clockwise" is the next index
and "nearest the dealer's left" the smallest.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter, itemgetter
from typing import Any

from stud.actions import (
    Abandon,
    Action,
    ActionKind,
    Event,
    IllegalAction,
    LegalAction,
    LogRecord,
    Show,
    TimeOut,
    _EventSlots,
    _new_object,
    new_event,
    record_from_json,
)
from stud.cards import Card
from stud.config import Game, GameConfig, SeatSetup
from stud.result import HandResult
from stud.showdown import TableAtEnd, settle, settle_uncontested, shown_words
from stud.variant import Variant

ACTIVE = 0  # in the hand and able to act
FOLDED = 1
ALL_IN = 2  # all-in, or treated as all-in after a protected time-out (R-TIME-1)
STATUS_NAMES = ("active", "folded", "all_in")

FOLD = ActionKind.FOLD
CHECK = ActionKind.CHECK
CALL = ActionKind.CALL
BRING_IN = ActionKind.BRING_IN
COMPLETE = ActionKind.COMPLETE
BET = ActionKind.BET
RAISE = ActionKind.RAISE
_KIND_TEXT: dict[ActionKind, str] = {kind: kind.value for kind in ActionKind}
_FOLD_OFFER = LegalAction(FOLD, 0, 0)
_CHECK_OFFER = LegalAction(CHECK, 0, 0)
# Offers are immutable values: the same ones are handed out again (bounded cache per kind).
_OFFERS: dict[ActionKind, dict[tuple[int, int], LegalAction]] = {kind: {} for kind in ActionKind}
_OFFER_CACHE_LIMIT = 4096
_CALL_OFFERS = _OFFERS[CALL]


def _offer(kind: ActionKind, to: int, adds: int) -> LegalAction:
    cache = _OFFERS[kind]
    offer = cache.get((to, adds))
    if offer is None:
        if len(cache) >= _OFFER_CACHE_LIMIT:
            cache.clear()
        offer = cache[(to, adds)] = LegalAction(kind, to, adds)
    return offer


MAX_PLAYERS = 8
_CARD_BIT: dict[Card, int] = {card: 1 << card for card in range(52)}
_ALL_CARD_BITS = (1 << 52) - 1
_SEAT_NUMBER = attrgetter("seat")
_GAME_TEXT: dict[Game, str] = {game: game.value for game in Game}


def _is_full_deck(deck: Sequence[Card]) -> bool:
    """Each of the 52 cards once: ``set(deck) == set(range(52))``, in a third of the time
    (one bit per card, looked up and added up in C; a card outside 0..51 is no key)."""
    if len(deck) != 52:
        return False
    try:
        bits: int = sum(itemgetter(*deck)(_CARD_BIT))
    except KeyError:
        return False
    # 52 powers of two add up to 52 one bits only if no two are the same (no carry)
    return bits == _ALL_CARD_BITS


# _CLOCKWISE[n][k]: the places after place k (-1: before place 0) clockwise, k itself last.
_CLOCKWISE: tuple[dict[int, tuple[int, ...]], ...] = tuple(
    {after: tuple((after + step) % n for step in range(1, n + 1)) for after in range(-1, n)}
    if n
    else {}
    for n in range(MAX_PLAYERS + 1)
)


def _order_of_deal(
    seats: Sequence[SeatSetup], deck: Sequence[Card], button: int
) -> tuple[SeatSetup, ...]:
    """R-GAME-3, R-DEAL-1: 2 to 8 players with chips in different seats, a full deck; the
    players in the order of the deal (the seats after the button's, then those up to it)."""
    n = len(seats)
    if not 2 <= n <= MAX_PLAYERS:
        raise ValueError(f"a hand needs 2 to {MAX_PLAYERS} players, not {n}")
    ordered = sorted(seats, key=_SEAT_NUMBER)
    numbers = [s.seat for s in ordered]
    if len(set(numbers)) != n:
        raise ValueError("two players in the same seat")
    for s in ordered:
        if s.stack <= 0:
            raise ValueError("every player dealt in needs chips (R-GAME-3)")
    if not _is_full_deck(deck):
        raise ValueError("the deck must hold each of the 52 cards once")
    after = bisect_right(numbers, button)
    return tuple(ordered[after:] + ordered[:after]) if after else tuple(ordered)


def _hand_start_event(config: GameConfig, button: int, players: tuple[SeatSetup, ...]) -> Event:
    return new_event(
        "hand_start",
        {
            "game": _GAME_TEXT[config.game],
            "button": button,
            "small_bet": config.small_bet,
            "big_bet": config.big_bet,
            "ante": config.ante,
            "bring_in": config.bring_in,
            "seats": [{"seat": p.seat, "name": p.name, "stack": p.stack} for p in players],
        },
    )


class _ThirdStreet:
    """The antes posted and third street dealt, in one pass over the players.

    R-ANTE-1..3: everyone antes, or only the dealer on a dealer-only-ante level (the dealer
    is the last player in the deal: the button's seat, or the nearest to its right when the
    button's seat is empty). R-DEAL-1/2: one card at a time from the dealer's left: down,
    down, then the door. R-BRING-1/4 (R-RAZZ-2): among players with chips, the door card
    the variant's order puts first brings in (``bring_in``, -1: nobody)."""

    __slots__ = (
        "antes",
        "bring_in",
        "bring_in_door",
        "candidates",
        "dealt",
        "down",
        "posts",
        "public",
        "stacks",
        "status",
        "up",
    )

    def __init__(
        self, config: GameConfig, players: tuple[SeatSetup, ...], cards: tuple[Card, ...]
    ) -> None:
        n = len(players)
        ante = config.ante
        dealer_ante = n - 1 if config.dealer_only_ante else -1
        door_order = config.variant.door_order
        stacks: list[int] = []
        status: list[int] = []
        antes: list[int] = []
        down: list[tuple[Card, ...]] = []
        up: list[tuple[Card, ...]] = []
        posts: list[dict[str, object]] = []
        dealt: list[Event] = []
        public: list[dict[str, object]] = []
        first = -1
        first_key = 52
        first_door = -1
        candidates = 0
        for i, player in enumerate(players):
            seat = player.seat
            stack = player.stack
            state = ACTIVE
            if ante > 0 and (dealer_ante < 0 or i == dealer_ante):
                amount = ante if ante < stack else stack
                stack -= amount
                antes.append(amount)
                if stack == 0:
                    state = ALL_IN
                posts.append({"seat": seat, "amount": amount, "all_in": stack == 0})
            else:
                antes.append(0)
            stacks.append(stack)
            status.append(state)
            one = cards[i]
            two = cards[n + i]
            door = cards[2 * n + i]
            down.append((one, two))
            up.append((door,))
            # an Event built in place (see actions.new_event): six of these a hand
            event = _EventSlots()
            event.kind = "down_cards"
            event.payload = {"seat": seat, "street": 3, "cards": [one, two]}
            event.visible_to = seat
            event.__class__ = Event  # type: ignore[assignment]
            dealt.append(event)  # type: ignore[arg-type]
            public.append({"seat": seat, "up": [door], "down_count": 2})
            if state == ACTIVE:
                candidates += 1
                key = door_order[door]
                if key < first_key:
                    first, first_key, first_door = i, key, door
        self.stacks = stacks
        self.status = status
        self.antes = antes
        self.down = down
        self.up = up
        self.posts = posts
        self.dealt = dealt
        self.public = public
        self.candidates = candidates
        self.bring_in = first
        self.bring_in_door = first_door


class StudHand:
    """A hand in play or finished. Treat it as immutable: every change makes a new hand.

    Its state is declared once, here (issue #12): each field's annotation, in the order of
    the stored JSON. ``__slots__``, the copy each change starts from, ``to_json``,
    ``from_json`` and equality all follow from these lines (see "The state, declared once"
    below the class): a new field is one line here, and its JSON form follows its type.
    ``_index``, ``_offers`` and ``to_act`` are derived, never stored (``_DERIVED``)."""

    config: GameConfig
    players: tuple[SeatSetup, ...]  # in the order of the deal
    deck: tuple[Card, ...]
    button: int
    reshuffle_seed: int
    _index: dict[int, int]  # table seat -> place in the deal
    _offers: tuple[LegalAction, ...] | None  # legal actions of the player to act, once asked
    # The per-player lists are shared with the hand copied from (``_copy_hand``): whatever
    # changes one replaces it with a copy first (``_act``, ``_close_round``, ``time_out``,
    # ``abandon``, ``_deal_street``), or with a new list. A check copies two lists, not five.
    stacks: list[int]
    status: list[int]
    antes: list[int]  # never changed after the start
    committed: list[int]  # bets of finished streets, after uncalled bets went back
    bets: list[int]  # this street
    down: list[tuple[Card, ...]]
    up: list[tuple[Card, ...]]
    deck_pos: int
    burns: tuple[Card, ...]
    community: Card | None
    reshuffled: bool
    street: int
    to_act_index: int  # -1: nobody
    to_act: int | None  # the seat whose turn it is (of to_act_index), or None
    needs: list[bool]  # still to act this round
    acted: list[int]  # raise_count when the player last acted this round; -1: not yet
    current_bet: int  # the street's highest to-amount
    full_to: int  # the to-amount of the last full bet or raise (R-BET-6)
    raise_count: int  # full bets and raises this round (the completion is the bet)
    capped: bool  # R-BET-3 cap reached with three or more players (R-BET-4)
    pair_option: bool  # R-BET-2: an open pair on 4th street
    big_made: bool  # R-BET-2: a big bet or raise made this round
    bring_in_index: int
    bring_in_due: bool
    last_aggressor: int  # this street
    first_actor: int  # this street
    returned: tuple[tuple[int, int], ...]  # (seat, chips) uncalled bets returned
    log: tuple[LogRecord, ...]
    result: HandResult | None
    volunteered: tuple[int, ...]  # seats that showed by choice after winning uncalled (R-SHOW-3)

    __slots__ = tuple(__annotations__)

    # --- starting -----------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        config: GameConfig,
        seats: Sequence[SeatSetup],
        deck: Sequence[Card],
        button: int,
        *,
        reshuffle_seed: int = 0,
    ) -> tuple[StudHand, list[Event]]:
        """Post the antes, deal third street and name the bring-in (R-ANTE, R-DEAL, R-BRING;
        R-RAZZ-2 in Razz).

        Named steps: check the players and the deck and put them in the order of the deal;
        post and deal (one pass over the players: this runs once a hand, and a random hand
        is short); a fresh hand on third street; then the bring-in, or, with nobody to bet
        against, the cards dealt out. The events come out in the order of the rules:
        hand_start, antes, street, each player's down cards, the door cards, the bring-in."""
        players = _order_of_deal(seats, deck, button)
        cards = tuple(deck)
        third = _ThirdStreet(config, players, cards)
        events = [_hand_start_event(config, button, players)]
        if config.ante > 0:
            events.append(new_event("antes", {"posts": third.posts}))
        events.append(new_event("street", {"street": 3}))
        events += third.dealt
        events.append(new_event("cards_dealt", {"street": 3, "seats": third.public}))
        hand = cls._on_third_street(config, players, cards, button, reshuffle_seed, third)
        if third.candidates < 2:  # nobody to bet against: the cards are dealt out
            hand._run_until_decision(events)
        else:
            hand._name_bring_in(third.bring_in, third.bring_in_door, events)
        return hand, events

    @classmethod
    def _on_third_street(
        cls,
        config: GameConfig,
        players: tuple[SeatSetup, ...],
        cards: tuple[Card, ...],
        button: int,
        reshuffle_seed: int,
        third: _ThirdStreet,
    ) -> StudHand:
        """The hand just dealt: third street, nobody to act yet, no bet."""
        n = len(players)
        hand: StudHand = _new_object(cls)
        hand.config = config
        hand.players = players
        hand.deck = cards
        hand.button = button
        hand.reshuffle_seed = reshuffle_seed
        hand._index = {p.seat: i for i, p in enumerate(players)}
        hand._offers = None
        hand.stacks = third.stacks
        hand.status = third.status
        hand.antes = third.antes
        hand.committed = [0] * n
        hand.bets = [0] * n
        hand.down = third.down
        hand.up = third.up
        hand.deck_pos = 3 * n
        hand.burns = ()
        hand.community = None
        hand.reshuffled = False
        hand.street = 3
        hand.acted = [-1] * n
        hand.current_bet = 0
        hand.full_to = 0
        hand.raise_count = 0
        hand.capped = False
        hand.pair_option = False
        hand.big_made = False
        hand.last_aggressor = -1
        hand.first_actor = -1
        hand.returned = ()
        hand.log = ()
        hand.result = None
        hand.volunteered = ()
        hand.bring_in_index = -1
        hand.bring_in_due = False
        hand.to_act_index = -1
        hand.to_act = None
        hand.needs = [False] * n
        return hand

    def _name_bring_in(self, i: int, door: Card, events: list[Event]) -> None:
        """R-BRING-1/2 (R-RAZZ-2): player ``i``'s door card brings in; they act first."""
        self.bring_in_index = i
        self.bring_in_due = True
        self.to_act_index = i
        self.to_act = self.players[i].seat
        self.needs = [state == ACTIVE for state in self.status]
        events.append(new_event("bring_in_due", {"seat": self.to_act, "door_card": door}))

    # --- reading ------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def seats(self) -> tuple[int, ...]:
        """Table seats dealt in, in the order of the deal."""
        return tuple(p.seat for p in self.players)

    @property
    def bring_in_seat(self) -> int | None:
        return None if self.bring_in_index < 0 else self.players[self.bring_in_index].seat

    @property
    def community_card(self) -> Card | None:
        return self.community

    @property
    def pot(self) -> int:
        """Every chip in the middle: antes, earlier streets and this street's bets."""
        return sum(self.antes) + sum(self.committed) + sum(self.bets)

    def index_of(self, seat: int) -> int:
        try:
            return self._index[seat]
        except KeyError:
            raise IllegalAction(f"seat {seat} is not in this hand") from None

    def stack(self, seat: int) -> int:
        return self.stacks[self.index_of(seat)]

    def bet(self, seat: int) -> int:
        """Chips this seat has bet on the current street."""
        return self.bets[self.index_of(seat)]

    def status_of(self, seat: int) -> str:
        return STATUS_NAMES[self.status[self.index_of(seat)]]

    def up_cards(self, seat: int) -> tuple[Card, ...]:
        return self.up[self.index_of(seat)]

    def down_cards(self, seat: int) -> tuple[Card, ...]:
        return self.down[self.index_of(seat)]

    def cards(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards in the order dealt: two down, the up cards, the river."""
        i = self.index_of(seat)
        return self.down[i][:2] + self.up[i] + self.down[i][2:]

    # --- what may be done ---------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[LegalAction]:
        """Everything the seat may do now; empty when it is not their turn."""
        to_act = self.to_act  # None once the hand is over
        if to_act is None or seat != to_act:
            return []
        offers = self._offers
        if offers is None:
            offers = self._offers = self._legal(self.to_act_index)
        return list(offers)

    def _legal(self, i: int) -> tuple[LegalAction, ...]:
        stack = self.stacks[i]
        bet = self.bets[i]
        if self.bring_in_due:
            config = self.config
            forced = min(config.bring_in, config.small_bet)
            amount = min(forced, stack)
            bring_in = _offer(BRING_IN, amount, amount)
            # the completion only when an opponent could put in more than the bring-in
            # (issue #17: no bet that nobody could answer)
            if forced < config.small_bet and stack > amount and self._answerable(i, amount):
                to = min(config.small_bet, stack)
                return (bring_in, _offer(COMPLETE, to, to))
            return (bring_in,)
        current = self.current_bet
        # Fold is offered at every turn but the bring-in's (R-BRING-2), even when a check is
        # free: PokerStars allows it (docs/engine-contract.md, "Rulings").
        if current > bet:
            call_to = current if current - bet < stack else bet + stack
            passive = _CALL_OFFERS.get((call_to, call_to - bet))
            if passive is None:
                passive = _offer(CALL, call_to, call_to - bet)
        else:
            passive = _CHECK_OFFER
        # R-BET-3/4/6: a raise needs chips beyond the call, the betting reopened for this
        # player, no cap, and someone to raise against: an opponent who could put in more
        # than the current bet (issue #17).
        raise_count = self.raise_count
        if stack <= current - bet or self.acted[i] >= raise_count or self.capped:
            return (_FOLD_OFFER, passive)
        status = self.status
        active = status.count(ACTIVE)
        config = self.config
        if active >= 3:
            if raise_count >= 1 + config.max_raises:
                return (_FOLD_OFFER, passive)
        elif active < 2:
            return (_FOLD_OFFER, passive)
        else:
            limit = config.heads_up_raises
            if limit is not None and raise_count >= 1 + limit:
                return (_FOLD_OFFER, passive)
        if current:
            # Issue #17: an opponent must be able to put in more than the current bet. Ask
            # first who made it (the last aggressor, or on third street the bring-in): able
            # to act, it can (it has matched the bet and has chips). Only if not, everyone.
            # With no bet yet, any other player able to act can (``active`` counted them).
            holder = self.last_aggressor
            if holder < 0:
                holder = self.bring_in_index
            if not (
                holder >= 0
                and holder != i
                and status[holder] == ACTIVE
                and self.bets[holder] + self.stacks[holder] > current
            ) and not self._answerable(i, current):
                return (_FOLD_OFFER, passive)
        full_to = self.full_to
        kind = BET if current == 0 else (COMPLETE if full_to == 0 else RAISE)
        most = bet + stack
        street = self.street
        if street == 4 and self.pair_option and not self.big_made:
            # R-BET-2: the small or the big bet
            small = full_to + config.small_bet
            if small > most:
                small = most
            big = full_to + config.big_bet
            if big > most:
                big = most
            offered = [_FOLD_OFFER, passive]
            if small > current:
                offered.append(_offer(kind, small, small - bet))
            if big > current and big != small:
                offered.append(_offer(kind, big, big - bet))
            return tuple(offered)
        to = full_to + (
            config.big_bet if street >= 5 or (street == 4 and self.big_made) else config.small_bet
        )
        if to > most:
            to = most
        if to <= current:
            return (_FOLD_OFFER, passive)
        offer = _OFFERS[kind].get((to, to - bet))
        if offer is None:
            offer = _offer(kind, to, to - bet)
        return (_FOLD_OFFER, passive, offer)

    def _answerable(self, i: int, level: int) -> bool:
        """Could anyone but player ``i`` put in chips beyond a bet of ``level`` this street?

        Docs "Nobody may bet or raise when no other player could act on it" (issue #17): a
        player can be raised only by the chips an opponent could still add. An opponent
        able to act whose bet and chips behind come to more than ``level`` could call a
        bet or raise over it, at least in part (less than a full raise still answers it);
        one all-in, or with chips only to call ``level``, could not."""
        status = self.status
        stacks = self.stacks
        bets = self.bets
        for j in range(len(status)):
            if status[j] == ACTIVE and j != i and bets[j] + stacks[j] > level:
                return True
        return False

    # --- doing --------------------------------------------------------------------------

    def apply(self, action: Action) -> tuple[StudHand, list[Event]]:
        """The hand after ``action``, and what happened. Refused actions raise IllegalAction
        and change nothing."""
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}")
        to_act = self.to_act  # None once the hand is over
        if to_act is None or action.seat != to_act:
            self._check_turn(action.seat)  # raises, saying why
        i = self.to_act_index
        kind = action.kind
        amount = action.amount
        chosen: LegalAction | None = None
        offers = self._offers
        if offers is None:
            offers = self._offers = self._legal(i)
        for offer in offers:
            if (offer.kind is kind or offer.kind == kind) and (
                offer.amount == amount or (kind is CALL and amount == self.current_bet)
            ):
                chosen = offer
                break
        if chosen is None:
            raise IllegalAction(self._refusal(i, action))
        if chosen.kind is not kind or chosen.amount != amount:  # e.g. "call" as plain text
            action = Action(action.seat, chosen.kind, chosen.amount)
        hand = _copy_hand(self, action)
        events: list[Event] = []
        hand._act(i, chosen.kind, chosen.amount, events)
        hand._advance(events, folded=chosen.kind is FOLD)
        return hand, events

    def time_out(self, seat: int, protected: bool) -> tuple[StudHand, list[Event]]:
        """R-TIME-1: check if possible; facing a bet, all-in for what is in if ``protected``,
        else fold. A bring-in that times out is posted (it cannot be folded: R-BRING-2)."""
        i = self._check_turn(seat)
        hand = _copy_hand(self, TimeOut(seat, protected))
        events: list[Event] = []
        if self.bring_in_due:
            offer = self._legal(i)[0]
            events.append(new_event("timeout", {"seat": seat, "result": "bring_in"}))
            hand._act(i, BRING_IN, offer.amount, events)
        elif self.current_bet == self.bets[i]:
            events.append(new_event("timeout", {"seat": seat, "result": "check"}))
            hand._act(i, CHECK, 0, events)
        elif protected:
            events.append(new_event("timeout", {"seat": seat, "result": "all_in_protection"}))
            hand.status = self.status[:]
            hand.status[i] = ALL_IN
            hand.needs = self.needs[:]
            hand.needs[i] = False
            hand.acted = self.acted[:]
            hand.acted[i] = hand.raise_count
            if hand.first_actor < 0:
                hand.first_actor = i
        else:
            events.append(new_event("timeout", {"seat": seat, "result": "fold"}))
            hand._act(i, FOLD, 0, events)
        hand._advance(events)
        return hand, events

    def may_show(self, seat: int) -> bool:
        """R-SHOW-3: the winner of a hand that ended without being called may show their cards
        (once). Nobody else may: at a showdown the engine shows or mucks (auto-muck)."""
        result = self.result
        if result is None or result.showdown or seat in self.volunteered:
            return False
        i = self._index.get(seat, -1)
        return i >= 0 and self.status[i] != FOLDED

    def show_cards(self, seat: int) -> tuple[StudHand, list[Event]]:
        """R-SHOW-3: the uncalled winner shows their cards; a public ``show`` event. The
        result (pots, stacks) is unchanged; ``shown_by_choice`` names the cards."""
        if not self.may_show(seat):
            if self.result is None:
                raise IllegalAction("cards are shown only after the hand")
            if self.result.showdown:
                raise IllegalAction("after a showdown the engine has shown or mucked every hand")
            if seat in self.volunteered:
                raise IllegalAction(f"seat {seat} has already shown")
            self.index_of(seat)  # raises for a seat not in the hand
            raise IllegalAction(f"only the winner may show; seat {seat} folded")
        hand = _copy_hand(self, Show(seat))
        hand.volunteered = (*self.volunteered, seat)
        own = self.cards(seat)
        full = own if self.community is None else (*own, self.community)
        payload = {"seat": seat, "cards": list(own), **shown_words(self.config.variant, full)}
        return hand, [new_event("show", payload)]

    def abandon(self, seat: int) -> tuple[StudHand, list[Event]]:
        """The seat's player left mid-hand: their hand is folded at once, out of turn if need
        be (a dead hand; what they put in stays in the pot, R-SHOW-4 still returning the
        uncalled part of a bet when the round closes). On their turn the action moves on as
        for a fold; a bring-in still owed is posted first (R-BRING-2). One player left: the
        hand ends."""
        if self.result is not None:
            raise IllegalAction("the hand is over")
        i = self.index_of(seat)
        if self.status[i] == FOLDED:
            raise IllegalAction(f"seat {seat} has folded; their hand is out already")
        hand = _copy_hand(self, Abandon(seat))
        events = [new_event("abandon", {"seat": seat})]
        if i == self.to_act_index:
            if self.bring_in_due:
                hand._act(i, BRING_IN, self._legal(i)[0].amount, events)
            hand._act(i, FOLD, 0, events)
            hand._advance(events)
        else:
            hand.status = self.status[:]
            hand.status[i] = FOLDED
            hand.needs = self.needs[:]
            hand.needs[i] = False
            events.append(
                new_event(
                    "action",
                    {
                        "seat": seat,
                        "action": _KIND_TEXT[FOLD],
                        "amount": 0,
                        "to": hand.bets[i],
                        "all_in": False,
                        "stack": hand.stacks[i],
                        "street": hand.street,
                    },
                )
            )
            # the player to act still is, unless the fold left them nobody to act against
            hand._advance(events, start=self.to_act_index)
        return hand, events

    @property
    def shown_by_choice(self) -> tuple[tuple[int, tuple[Card, ...]], ...]:
        """(seat, cards as dealt) for each seat that showed by choice (R-SHOW-3)."""
        return tuple((seat, self.cards(seat)) for seat in self.volunteered)

    def _check_turn(self, seat: int) -> int:
        if self.result is not None:
            raise IllegalAction("the hand is over")
        i = self._index.get(seat, -1)
        if i < 0:
            raise IllegalAction(f"seat {seat} is not in this hand")
        if i != self.to_act_index:
            raise IllegalAction(f"it is not seat {seat}'s turn; seat {self.to_act} is to act")
        return i

    def _refusal(self, i: int, action: Action) -> str:
        offered = ", ".join(
            f"{o.kind.value} {o.amount}" if o.amount else o.kind.value for o in self._legal(i)
        )
        return (
            f"seat {action.seat} may not {action.kind.value} {action.amount} "
            f"on street {self.street}; offered: {offered}"
        )

    def _act(self, i: int, kind: ActionKind, to: int, events: list[Event]) -> None:
        """Carry out an offered action (``to``: the to-amount) on this (fresh) hand: each list
        it changes is copied first (see ``_copy_hand``)."""
        if self.first_actor < 0:
            self.first_actor = i
        needs = self.needs = self.needs[:]
        needs[i] = False
        bets = self.bets
        status = self.status
        adds = 0
        if kind is FOLD:
            status = self.status = status[:]
            status[i] = FOLDED
        elif kind is CALL:
            adds = to - bets[i]
        elif kind is BRING_IN:
            adds = to
            self.bring_in_due = False
            self.current_bet = to
            if to >= self.config.small_bet:  # a bring-in of a full bet is the round's bet
                self.full_to = to
                self.raise_count = 1
        elif kind is not CHECK:  # a bet, completion or raise
            adds = to - bets[i]
            self._raise_to(i, to)
            self.bring_in_due = False
        stack = self.stacks[i]
        if adds:
            bets = self.bets = bets[:]
            bets[i] = to
            stacks = self.stacks = self.stacks[:]
            stacks[i] = stack = stack - adds
            if stack == 0:
                status = self.status = status[:]
                status[i] = ALL_IN
        acted = self.acted = self.acted[:]
        acted[i] = self.raise_count
        # an Event built in place (see actions.new_event): one per action
        event = _EventSlots()
        event.kind = "action"
        event.payload = {
            "seat": self.players[i].seat,
            "action": _KIND_TEXT[kind],
            "amount": adds,
            "to": bets[i],
            "all_in": status[i] == ALL_IN,
            "stack": stack,
            "street": self.street,
        }
        event.visible_to = None
        event.__class__ = Event  # type: ignore[assignment]
        events.append(event)  # type: ignore[arg-type]

    def _raise_to(self, i: int, to: int) -> None:
        """A bet, completion or raise to ``to``: is it full (R-BET-6), is it big (R-BET-2),
        does it reach the cap (R-BET-3)?"""
        config = self.config
        base = config.big_bet if self.street >= 5 or self.big_made else config.small_bet
        increase = to - self.current_bet
        if to - self.full_to >= base or 2 * increase >= base:
            if self.street == 4 and self.pair_option and to - self.full_to >= config.big_bet:
                self.big_made = True
            self.raise_count += 1
            self.full_to = to
            if self.raise_count >= 1 + config.max_raises and self.status.count(ACTIVE) >= 3:
                self.capped = True
        self.current_bet = to
        self.last_aggressor = i
        status = self.status
        needs = self.needs
        for j in range(len(status)):
            if j != i and status[j] == ACTIVE:
                needs[j] = True

    # --- moving on ----------------------------------------------------------------------

    def _advance(self, events: list[Event], start: int = -1, *, folded: bool = True) -> None:
        """After an action: the next player, or the next street, or the end of the hand.
        ``start``: look for the player to act from this index on (not after the one to act).
        ``folded``: False when the action folded nobody (then two or more are still in)."""
        status = self.status
        if folded and len(status) - status.count(FOLDED) == 1:
            self.to_act_index = -1
            self.to_act = None
            self._close_round(events)
            self._finish(events, showdown=False)
            return
        # The next player clockwise who still has to act (and has someone to act against).
        needs = self.needs
        bets = self.bets
        current = self.current_bet
        n = len(status)
        others_can_act = status.count(ACTIVE) >= 2
        after = self.to_act_index if start < 0 else start - 1
        for j in _CLOCKWISE[n][after]:
            if needs[j] and status[j] == ACTIVE and (others_can_act or bets[j] < current):
                self.to_act_index = j
                self.to_act = self.players[j].seat
                return
        self.to_act_index = -1
        self.to_act = None
        self._close_round(events)
        self._run_until_decision(events)

    def _run_until_decision(self, events: list[Event]) -> None:
        """Deal the next streets until someone must act, or settle the hand."""
        while True:
            street = self.street
            if street == 7:
                self._finish(events, showdown=True)
                return
            if street < 6:
                self._deal_up_street(street + 1, events)
            else:
                self._deal_street(7, events)
                self._open_round()
            if self.to_act_index >= 0:
                return
            self._close_round(events)

    def _deal_up_street(self, street: int, events: list[Event]) -> None:
        """Fourth to sixth street: ``_deal_street`` and then ``_open_round``, in one pass over
        the players (the deal, the best board showing, the open pair, who may act).

        R-DEAL-3/4: burn, then one card up each from the dealer's left (the stub always has
        enough here). R-ORDER-1/2: the best board showing acts first; equal boards, nearest
        the dealer's left. R-BET-2: an open pair on 4th street allows the big bet."""
        self.street = street
        events.append(new_event("street", {"street": street}))
        deck = self.deck
        position = self.deck_pos
        self.burns = (*self.burns, deck[position])
        position += 1
        status = self.status
        players = self.players
        n = len(status)
        up = self.up = self.up[:]
        needs = [False] * n
        public: list[dict[str, object]] = []
        community = self.community
        weight = _RANK_WEIGHT
        variant = self.config.variant
        strengths = variant.board_cache
        extra = 0 if community is None else weight[community]
        best = -1
        best_rank: tuple[int, ...] = ()
        active = 0
        pair_option = False
        for i in range(n):
            state = status[i]
            if state == FOLDED:
                continue
            card = deck[position]
            position += 1
            board = up[i] = (*up[i], card)
            public.append({"seat": players[i].seat, "up": [card], "down_count": 0})
            # _board_strength, its remembered case in place
            key = extra
            for shown in board:
                key += weight[shown]
            rank = strengths.get(key)
            if rank is None:
                rank = _board_strength(board if community is None else (*board, community), variant)
            if best < 0 or rank > best_rank:
                best, best_rank = i, rank
            if street == 4 and board[0] >> 2 == board[1] >> 2 and variant.open_pair_big_bet:
                pair_option = True
            if state == ACTIVE:
                active += 1
                needs[i] = True
        self.deck_pos = position
        events.append(new_event("cards_dealt", {"street": street, "seats": public}))
        self.bets = [0] * n
        self.current_bet = 0
        self.full_to = 0
        self.raise_count = 0
        self.capped = False
        self.big_made = False
        self.pair_option = pair_option
        self.acted = [-1] * n
        self.last_aggressor = -1
        self.bring_in_due = False
        if active < 2:
            self.needs = [False] * n
            self.to_act_index = -1
            self.to_act = None
            self.first_actor = best
            return
        self.first_actor = -1
        self.needs = needs
        first = best
        while status[first] != ACTIVE:
            first = (first + 1) % n
        self.to_act_index = first
        self.to_act = self.players[first].seat

    def _close_round(self, events: list[Event]) -> None:
        """R-SHOW-4: the uncalled part of the top bet goes back; bets join the pot."""
        bets = self.bets
        # one pass: the top bet, its first holder (the leader), the highest bet but the
        # leader's, and every bet into the pot
        top = second = 0
        leader = -1
        committed = self.committed[:]
        for i, bet in enumerate(bets):
            if bet:
                committed[i] += bet
                if bet > top:
                    second = top
                    top = bet
                    leader = i
                elif bet > second:
                    second = bet
        if top:
            if top > second:
                back = top - second
                committed[leader] -= back
                stacks = self.stacks = self.stacks[:]  # shared with the hand before (_copy_hand)
                stacks[leader] += back
                seat = self.players[leader].seat
                self.returned = (*self.returned, (seat, back))
                events.append(new_event("uncalled_bet_returned", {"seat": seat, "amount": back}))
            self.committed = committed
            self.bets = [0] * len(bets)

    def _deal_street(self, street: int, events: list[Event]) -> None:
        """R-DEAL-3/4/5: burn, then one card each from the dealer's left; the river down,
        with the reshuffle or community card when the stub is short."""
        self.street = street
        events.append(new_event("street", {"street": street}))
        deck = self.deck
        self.burns = (*self.burns, deck[self.deck_pos])
        self.deck_pos += 1
        live = [i for i, s in enumerate(self.status) if s != FOLDED]
        players = self.players
        public: list[dict[str, object]] = []
        if street < 7:
            up = self.up = self.up[:]
            position = self.deck_pos
            for i in live:
                card = deck[position]
                position += 1
                up[i] = (*up[i], card)
                public.append({"seat": players[i].seat, "up": [card], "down_count": 0})
            self.deck_pos = position
            events.append(new_event("cards_dealt", {"street": street, "seats": public}))
            return
        source: Sequence[Card] = deck
        position = self.deck_pos
        if len(deck) - position < len(live):
            pile = list(self.burns) + list(deck[position:])
            random.Random(self.reshuffle_seed).shuffle(pile)
            self.reshuffled = True
            self.deck_pos = len(deck)
            events.append(new_event("reshuffle", {"cards": len(pile)}))
            if len(pile) < len(live):
                self.community = pile[0]
                events.append(new_event("community_card", {"card": pile[0]}))
                return
            source = pile
            position = 0
        down = self.down = self.down[:]
        for i in live:
            card = source[position]
            position += 1
            down[i] = (*down[i], card)
            seat = players[i].seat
            events.append(
                new_event(
                    "down_cards", {"seat": seat, "street": 7, "cards": [card]}, visible_to=seat
                )
            )
            public.append({"seat": seat, "up": [], "down_count": 1})
        events.append(new_event("cards_dealt", {"street": 7, "seats": public}))
        if not self.reshuffled:
            self.deck_pos = position

    def _open_round(self) -> None:
        """R-ORDER-1/2: the best board showing acts first; equal boards, nearest the dealer's
        left. R-BET-2: an open pair on 4th street allows the big bet."""
        n = len(self.players)
        status = self.status
        up = self.up
        live = [i for i in range(n) if status[i] != FOLDED]
        community = self.community
        best = -1
        best_rank: tuple[int, ...] = ()
        weight = _RANK_WEIGHT
        variant = self.config.variant
        strengths = variant.board_cache
        extra = 0 if community is None else weight[community]
        for i in live:
            # _board_strength, its remembered case in place (six players, every street)
            key = extra
            for card in up[i]:
                key += weight[card]
            rank = strengths.get(key)
            if rank is None:
                rank = _board_strength(up[i] if community is None else (*up[i], community), variant)
            if best < 0 or rank > best_rank:
                best, best_rank = i, rank
        self.bets = [0] * n
        self.current_bet = 0
        self.full_to = 0
        self.raise_count = 0
        self.capped = False
        self.big_made = False
        pair_option = False
        if self.street == 4 and variant.open_pair_big_bet:
            for i in live:
                if up[i][0] >> 2 == up[i][1] >> 2:
                    pair_option = True
                    break
        self.pair_option = pair_option
        self.acted = [-1] * n
        self.last_aggressor = -1
        self.first_actor = -1
        self.bring_in_due = False
        if status.count(ACTIVE) < 2:
            self.needs = [False] * n
            self.to_act_index = -1
            self.to_act = None
            self.first_actor = best
            return
        self.needs = [s == ACTIVE for s in status]
        first = best
        while status[first] != ACTIVE:
            first = (first + 1) % n
        self.to_act_index = first
        self.to_act = self.players[first].seat

    def _finish(self, events: list[Event], *, showdown: bool) -> None:
        n = len(self.players)
        show_first = -1
        if showdown:
            show_first = self.last_aggressor if self.last_aggressor >= 0 else self.first_actor
            if show_first < 0:
                show_first = 0
            events.append(new_event("showdown", {}))
        else:
            status = self.status
            winner = 0  # the one not folded
            while status[winner] == FOLDED:
                winner += 1
            result, settled, stacks = settle_uncontested(
                self.config,
                self.players,
                winner,
                sum(self.antes) + sum(self.committed),
                self.stacks,
                self.returned,
            )
            self._settled(result, settled, stacks, events)
            return
        table = TableAtEnd(
            config=self.config,
            players=self.players,
            live=tuple(s != FOLDED for s in self.status),
            cards=tuple(self.down[i][:2] + self.up[i] + self.down[i][2:] for i in range(n)),
            community=self.community,
            antes=tuple(self.antes),
            committed=tuple(self.committed),
            stacks=tuple(self.stacks),
            uncalled=self.returned,
            show_first=show_first,
        )
        result, settled, stacks = settle(table)
        self._settled(result, settled, stacks, events)

    def _settled(
        self, result: HandResult, settled: list[Event], stacks: list[int], events: list[Event]
    ) -> None:
        n = len(self.players)
        self.stacks = stacks
        self.committed = [0] * n
        self.antes = [0] * n
        self.result = result
        self.to_act_index = -1
        self.to_act = None
        self.needs = [False] * n
        events.extend(settled)

    # --- equality and JSON --------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StudHand):
            return NotImplemented
        return _stored_state(self) == _stored_state(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"StudHand(street={self.street}, to_act={self.to_act}, pot={self.pot}, "
            f"over={self.is_over})"
        )

    def to_json(self) -> dict[str, object]:
        """Everything, losslessly, as JSON-ready data (the deck included: keep it private)."""
        return _hand_to_json(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StudHand:
        if data.get("version") != _JSON_VERSION:
            raise ValueError(f"unknown hand format version: {data.get('version')!r}")
        hand = _hand_from_json(data)
        hand._index = {p.seat: i for i, p in enumerate(hand.players)}
        hand._offers = None
        hand.to_act = None if hand.to_act_index < 0 else hand.players[hand.to_act_index].seat
        return hand


# --- The state, declared once (issue #12) -----------------------------------------------
#
# Everything below follows from StudHand's annotations, the way ``dataclasses`` makes its
# methods: the names and types are read once at import and the copy and the JSON codec are
# written out as straight-line functions (one attribute store per field, as a hand-written
# copy would be: a copy is made for every action, so no loop over names). A field whose type
# has no JSON form below fails here, at import.

_JSON_VERSION = 1
# Derived from the stored fields: not in the JSON, not compared. In a copy: the place of each
# seat is shared, the offers are asked again, the seat to act is copied.
_DERIVED = ("_index", "_offers", "to_act")
_COPY_AS = {"_offers": "None", "log": "(*self.log, record)"}
# Stored hands written before a field existed: the value it reads as.
_ADDED_LATER = {"volunteered": "()"}  # R-SHOW-3's voluntary show
# A type's JSON form: (to JSON, from JSON), ``{0}`` the value. Lists and tuples of numbers
# are written as lists and read back as the type's list or tuple (``int()`` and ``bool()``
# accept what the hands stored before accepted).
_CODECS: dict[str, tuple[str, str]] = {
    "int": ("{0}", "int({0})"),
    "bool": ("{0}", "bool({0})"),
    "Card | None": ("{0}", "None if {0} is None else int({0})"),
    "list[int]": ("list({0})", "[int(x) for x in {0}]"),
    "list[bool]": ("list({0})", "[bool(x) for x in {0}]"),
    "tuple[Card, ...]": ("list({0})", "tuple(int(c) for c in {0})"),
    "tuple[int, ...]": ("list({0})", "tuple(int(x) for x in {0})"),
    "list[tuple[Card, ...]]": (
        "[list(cards) for cards in {0}]",
        "[tuple(int(c) for c in cards) for cards in {0}]",
    ),
    "tuple[tuple[int, int], ...]": (
        "[list(pair) for pair in {0}]",
        "tuple((int(a), int(b)) for a, b in {0})",
    ),
    "GameConfig": ("{0}.to_json()", "GameConfig.from_json({0})"),
    "tuple[SeatSetup, ...]": (
        "[p.to_json() for p in {0}]",
        "tuple(SeatSetup.from_json(p) for p in {0})",
    ),
    "tuple[LogRecord, ...]": (
        "[record.to_json() for record in {0}]",
        "tuple(record_from_json(record) for record in {0})",
    ),
    "HandResult | None": (
        "None if {0} is None else {0}.to_json()",
        "None if {0} is None else HandResult.from_json({0})",
    ),
}
_FIELDS: dict[str, str] = dict(StudHand.__annotations__)  # name -> type, in JSON order
_STORED = tuple(name for name in _FIELDS if name not in _DERIVED)
for _name in _STORED:
    if _FIELDS[_name] not in _CODECS:
        raise TypeError(f"StudHand.{_name}: no JSON form for the type {_FIELDS[_name]!r}")


# What the generated functions name: the codecs' readers and the hand's own class.
_SCOPE: dict[str, Any] = {
    "StudHand": StudHand,
    "GameConfig": GameConfig,
    "SeatSetup": SeatSetup,
    "HandResult": HandResult,
    "record_from_json": record_from_json,
    "_new_object": _new_object,
}


def _generated(name: str, lines: list[str]) -> Any:
    """Compile one function from its source lines (our own text, made at import)."""
    exec("\n".join(lines), _SCOPE)
    return _SCOPE[name]


_copy_hand: Callable[[StudHand, LogRecord], StudHand] = _generated(
    "_copy_hand",
    [
        "def _copy_hand(self, record):",
        '    """A fresh hand to change: this one, with ``record`` added to its log."""',
        "    hand = _new_object(StudHand)",
        *(f"    hand.{name} = {_COPY_AS.get(name, f'self.{name}')}" for name in _FIELDS),
        "    return hand",
    ],
)
_hand_to_json: Callable[[StudHand], dict[str, object]] = _generated(
    "_hand_to_json",
    [
        "def _hand_to_json(self):",
        f'    return {{"version": {_JSON_VERSION},',
        *(
            f"        {name!r}: {_CODECS[_FIELDS[name]][0].format(f'self.{name}')},"
            for name in _STORED
        ),
        "    }",
    ],
)
_hand_from_json: Callable[[Mapping[str, Any]], StudHand] = _generated(
    "_hand_from_json",
    [
        "def _hand_from_json(data):",
        "    hand = _new_object(StudHand)",
        *(
            line
            for name in _STORED
            for line in (
                f"    value = data[{name!r}]"
                if name not in _ADDED_LATER
                else f"    value = data.get({name!r}, {_ADDED_LATER[name]})",
                f"    hand.{name} = {_CODECS[_FIELDS[name]][1].format('value')}",
            )
        ),
        "    return hand",
    ],
)
# The stored fields as one tuple: equality compares these.
_stored_state = attrgetter(*_STORED)


# A board's ranks as one number: 5 ** rank per card. At most four cards share a rank, so the
# sum names the ranks showing (suits never count in who acts first) without sorting them.
_RANK_WEIGHT: tuple[int, ...] = tuple(5 ** (card >> 2) for card in range(52))


def _board_strength(board: tuple[Card, ...], variant: Variant) -> tuple[int, ...]:
    """The variant's board strength (R-ORDER-1, R-RAZZ-3) remembered by the ranks showing,
    in the variant's own cache (at most a few thousand boards a game)."""
    key = 0
    for card in board:
        key += _RANK_WEIGHT[card]
    strength = variant.board_cache.get(key)
    if strength is None:
        strength = variant.board_cache[key] = variant.board_strength(board)
    return strength


def replay(
    config: GameConfig,
    seats: Sequence[SeatSetup],
    deck: Sequence[Card],
    button: int,
    log: Iterable[LogRecord],
    *,
    reshuffle_seed: int = 0,
) -> StudHand:
    """The hand after dealing and then applying every record of ``log`` (``StudHand.log``)."""
    hand, _ = StudHand.start(config, seats, deck, button, reshuffle_seed=reshuffle_seed)
    for record in log:
        if isinstance(record, Action):
            hand, _ = hand.apply(record)
        elif isinstance(record, TimeOut):
            hand, _ = hand.time_out(record.seat, record.protected)
        elif isinstance(record, Abandon):
            hand, _ = hand.abandon(record.seat)
        else:
            hand, _ = hand.show_cards(record.seat)
    return hand
