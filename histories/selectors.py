"""Reads of finished hands for the players who played them (R-HIST-1..3).

A player reads only hands they were dealt into, and of those only what R-HIST-2 lets them
see: their own down cards, other players' where shown at showdown. The emailed copy also
shows the cards mucked at showdown. Every copy is built from the engine's finished hand
(`Hand.state`); the engine decides what the text says, this module only picks the viewer.

After the hand its fairness data go with it (DESIGN.md "Fairness", `engine/deck.py`): the
52 leaves of the card-by-card commitment, the public facts of the deal that place each card
(`engine/dealing.py`), and the card and salt of each card the viewer was entitled to see (up
cards, the community card, hands shown, their own down cards). Folded and mucked down cards and
burns are never revealed, here or in any copy. Hands dealt before that scheme committed to the
whole deck with one salt; theirs is revealed, so they can still be checked, while
`settings.HAND_HISTORY_REVEAL_DECK` is on (that deck tells every card dealt).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any, Literal

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from accounts.money import cents_format
from pokerroom.room_day import day_bounds, room_zone
from stud import StudHand, view
from stud.cards import card_text, cards_text
from stud.dealing import deal_of, seen_by
from stud.deck import WHOLE_DECK_SCHEME, deck_leaves
from stud.history_text import TournamentHeading, render_pokerstars
from stud.phh import render_phh
from tables.models import Hand, HandEvent, HistoryEmailRequest
from tournaments.models import TournamentEntry, TournamentTable

Outcome = Literal["won", "lost", "even"]
Copy = Literal["player", "email"]


def reveals_deck() -> bool:
    return bool(getattr(settings, "HAND_HISTORY_REVEAL_DECK", True))


def hands_played(*, player_id: int) -> QuerySet[Hand]:
    """Finished hands the player was dealt into, newest first (through the HandPlayer index,
    not a scan of every hand's players)."""
    return (
        Hand.objects.filter(ended_at__isnull=False, dealt__player_id=player_id)
        .select_related("table")
        .order_by("-ended_at", "-id")
    )


def seat_of(hand: Hand, player_id: int) -> int | None:
    for seat, dealt in hand.players.items():
        if dealt == player_id:
            return int(seat)
    return None


@dataclass(frozen=True)
class PlayedHand:
    """A finished hand as one player reads it."""

    hand: Hand
    engine: StudHand
    seat: int

    @property
    def started_with(self) -> int:
        return next(p.stack for p in self.engine.players if p.seat == self.seat)

    @property
    def finished_with(self) -> int:
        assert self.engine.result is not None
        return self.engine.result.stack(self.seat)

    @property
    def net(self) -> int:
        """Chips won (positive) or lost (negative) in this hand."""
        return self.finished_with - self.started_with

    @property
    def outcome(self) -> Outcome:
        return "won" if self.net > 0 else "lost" if self.net < 0 else "even"

    @property
    def pot(self) -> int:
        assert self.engine.result is not None
        return sum(pot.amount for pot in self.engine.result.pots)

    @property
    def rake(self) -> int:
        assert self.engine.result is not None
        return self.engine.result.rake

    # Amounts as the pages write them: dollars at a cash table, plain chips at a tournament
    # table (tournament chips are never money).

    @property
    def is_tournament(self) -> bool:
        return bool(self.hand.table.is_tournament)

    def amount_text(self, amount: int) -> str:
        return str(amount) if self.is_tournament else cents_format(amount)

    @property
    def stakes_text(self) -> str:
        config = self.engine.config
        return f"{self.amount_text(config.small_bet)}/{self.amount_text(config.big_bet)}"

    @property
    def pot_text(self) -> str:
        return self.amount_text(self.pot)

    @property
    def rake_text(self) -> str:
        return self.amount_text(self.rake)

    @property
    def net_text(self) -> str:
        return self.amount_text(self.net)

    @property
    def net_size_text(self) -> str:
        """The size of a win or a loss, without its sign ("lost $0.05", never "lost -$0.05")."""
        return self.amount_text(abs(self.net))


def _played(hand: Hand, player_id: int) -> PlayedHand | None:
    seat = seat_of(hand, player_id)
    if seat is None or hand.ended_at is None:
        return None
    engine = StudHand.from_json(hand.state)
    if engine.result is None:
        return None
    return PlayedHand(hand=hand, engine=engine, seat=seat)


def played_hand(*, hand_id: int, player_id: int) -> PlayedHand | None:
    """The hand if it is finished and the player was dealt into it; else None (a 404)."""
    hand = Hand.objects.filter(pk=hand_id, ended_at__isnull=False).select_related("table").first()
    return None if hand is None else _played(hand, player_id)


def played_hands(
    *,
    player_id: int,
    table_id: int | None = None,
    first_day: date | None = None,
    last_day: date | None = None,
    outcome: Outcome | None = None,
    hand_ids: Iterable[int] | None = None,
    limit: int | None = None,
) -> list[PlayedHand]:
    """The player's finished hands, newest first, filtered by table, New York days (by the
    hand's end) and outcome (won / lost / even for the player)."""
    hands = hands_played(player_id=player_id)
    if table_id is not None:
        hands = hands.filter(table_id=table_id)
    start, end = day_bounds(first_day, last_day)
    if start is not None:
        hands = hands.filter(ended_at__gte=start)
    if end is not None:
        hands = hands.filter(ended_at__lt=end)
    if hand_ids is not None:
        hands = hands.filter(pk__in=list(hand_ids))
    if outcome is None and limit is not None:
        hands = hands[:limit]
    rows = []
    for hand in hands:
        played = _played(hand, player_id)
        if played is None or (outcome is not None and played.outcome != outcome):
            continue
        rows.append(played)
        if limit is not None and len(rows) >= limit:
            break
    return rows


# --- the copies -------------------------------------------------------------------------------


def _with_mucked_cards(text: str, played: PlayedHand) -> str:
    """R-HIST-2 (seed 000): the emailed copy names the cards mucked at showdown."""
    result = played.engine.result
    assert result is not None
    names = {p.seat: p.name for p in played.engine.players}
    lines = text.split("\n")
    for seat, cards in result.mucked:
        hidden = f"Seat {seat}: {names[seat]} mucked hand"
        shown = f"Seat {seat}: {names[seat]} mucked [{cards_text(cards)}]"
        lines = [shown if line == hidden else line for line in lines]
    return "\n".join(lines)


def tournament_level_of(tournament_table: TournamentTable, engine: StudHand) -> int:
    """The level a tournament hand was dealt at: the level with its stakes (levels past the
    last double its figures, R-TOUR-8), else the table's level now."""
    config = engine.config
    levels = list(tournament_table.tournament.levels.order_by("number"))
    for level in levels:
        if (level.small_bet, level.big_bet, level.ante, level.bring_in) == (
            config.small_bet,
            config.big_bet,
            config.ante,
            config.bring_in,
        ):
            return level.number
    if levels:
        last, small, number = levels[-1], levels[-1].small_bet, levels[-1].number
        while small < config.small_bet:
            small, number = small * 2, number + 1
        if small == config.small_bet and number > last.number:
            return number
    return tournament_table.level


def tournament_heading(played: PlayedHand) -> TournamentHeading | None:
    """The tournament header of a hand dealt at a tournament table (None at a cash table):
    the tournament, its buy-in and fee, the level, the table's number, and who finished."""
    hand = played.hand
    if not played.is_tournament:
        return None
    placing = (
        TournamentTable.objects.filter(table_id=hand.table_id).select_related("tournament").first()
    )
    if placing is None:
        return None
    tournament = placing.tournament
    names = {player.seat: player.name for player in played.engine.players}
    seats = {dealt: int(seat) for seat, dealt in hand.players.items()}
    finished = [
        (names[seats[player_id]], int(place or 0))
        for player_id, place in TournamentEntry.objects.filter(
            tournament=tournament, eliminated_in_hand=hand, place__isnull=False
        )
        .order_by("-place")
        .values_list("player_id", "place")
        if player_id in seats
    ]
    return TournamentHeading(
        tournament_id=tournament.pk,
        buy_in=tournament.buy_in,
        fee=tournament.fee,
        level=tournament_level_of(placing, played.engine),
        table_number=placing.number,
        finished=finished,
    )


def hand_text(played: PlayedHand, *, copy: Copy = "player") -> str:
    """The hand in PokerStars text (R-HIST-3) for its player: "player" is the screen and
    download copy, "email" adds the cards mucked at showdown (R-HIST-2). A tournament hand
    has PokerStars' tournament header and its amounts in chips."""
    hand = played.hand
    text = render_pokerstars(
        played.engine,
        hand_id=hand.pk,
        table_name=hand.table.name,
        started_at=hand.started_at,
        viewer=played.seat,
        max_seats=hand.table.seats,
        tournament=tournament_heading(played),
    )
    return _with_mucked_cards(text, played) if copy == "email" else text


def hands_text(hands: Iterable[PlayedHand], *, copy: Copy = "player") -> str:
    """Several hands in one file, separated by blank lines as PokerStars writes them."""
    return "\n\n".join(hand_text(played, copy=copy) for played in hands)


def hand_phh(played: PlayedHand) -> str:
    """The hand in PHH (uoftcprg/phh-std, TOML) for its player: their own down cards, the
    others' only where shown (R-HIST-2); the room's facts in user-defined fields."""
    hand = played.hand
    started = timezone.localtime(hand.started_at, room_zone())
    return render_phh(
        played.engine,
        hand_id=hand.pk,
        table_name=hand.table.name,
        viewer=played.seat,
        started_at=(started.year, started.month, started.day),
        currency=None if hand.table.is_tournament else "USD",
        extra={"hand_number": hand.number, "commitment": hand.commitment},
    )


def hand_filename(played: PlayedHand) -> str:
    return f"hand-{played.hand.pk}.txt"


def hands_zip(hands: Iterable[PlayedHand]) -> bytes:
    """Each hand as PokerStars text and as PHH, in a zip."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for played in hands:
            archive.writestr(hand_filename(played), hand_text(played))
            archive.writestr(f"hand-{played.hand.pk}.phh", hand_phh(played))
    return buffer.getvalue()


def fairness(played: PlayedHand) -> dict[str, Any]:
    """The commitment and what the hand's player may check it with (R-HIST-2)."""
    hand = played.hand
    if hand.fairness_scheme == WHOLE_DECK_SCHEME:
        return _whole_deck_fairness(hand)
    salts = hand.salts
    return {
        "scheme": hand.fairness_scheme,
        "commitment": hand.commitment,
        "deck": None,
        "deck_text": None,
        "salt": None,
        "leaves": deck_leaves(hand.deck, salts),
        "deal": deal_of(played.engine).to_json(),
        "revealed": [
            {
                "position": dealt.position,
                "card": dealt.card,
                "card_text": card_text(dealt.card),
                "salt": salts[dealt.position],
                "seat": dealt.slot.seat,
                "index": dealt.slot.index,
                "street": dealt.slot.street,
                "face": dealt.slot.face,
            }
            for dealt in seen_by(played.engine, played.seat)
        ],
    }


def _whole_deck_fairness(hand: Hand) -> dict[str, Any]:
    """A hand dealt before the card-by-card commitment: its whole deck and its one salt."""
    revealed = reveals_deck()
    return {
        "scheme": WHOLE_DECK_SCHEME,
        "commitment": hand.commitment,
        "deck": list(hand.deck) if revealed else None,
        "deck_text": cards_text(hand.deck) if revealed else None,
        "salt": hand.salt if revealed else None,
        "leaves": None,
        "deal": None,
        "revealed": None,
    }


def visible_events(played: PlayedHand) -> list[dict[str, Any]]:
    """The hand's log as its player saw it: public events and their own private ones."""
    events = HandEvent.objects.filter(hand=played.hand).order_by("seq")
    return [
        {
            "seq": event.seq,
            "kind": event.kind,
            "payload": event.payload,
            "at": event.created_at.isoformat(),
        }
        for event in events
        if event.visible_to is None or event.visible_to == played.seat
    ]


def hand_summary(played: PlayedHand) -> dict[str, Any]:
    hand = played.hand
    table = hand.table
    return {
        "id": hand.pk,
        "number": hand.number,
        "table": {"id": table.pk, "name": table.name},
        "game": played.engine.config.game.value,
        "small_bet": played.engine.config.small_bet,
        "big_bet": played.engine.config.big_bet,
        "started_at": hand.started_at.isoformat(),
        "ended_at": hand.ended_at.isoformat() if hand.ended_at else None,
        "seat": played.seat,
        "net": played.net,
        "outcome": played.outcome,
        "pot": played.pot,
        "rake": played.rake,
    }


def hand_json(played: PlayedHand) -> dict[str, Any]:
    """The hand as JSON for its player: summary, fairness, the final view of the table for
    their seat (engine `view`: own down cards, shown cards) and the events they could see."""
    return {
        **hand_summary(played),
        "ante": played.engine.config.ante,
        "bring_in": played.engine.config.bring_in,
        "button": played.hand.button,
        "fairness": fairness(played),
        "final": view(played.engine, played.seat),
        "events": visible_events(played),
    }


def email_requests(*, player_id: int, limit: int = 10) -> QuerySet[HistoryEmailRequest]:
    """The player's latest "Email me these hands" requests and when each went."""
    return HistoryEmailRequest.objects.filter(player_id=player_id).order_by("-created_at", "-id")[
        :limit
    ]
