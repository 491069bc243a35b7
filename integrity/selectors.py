"""Reads for the staff's Integrity pages: the pairs ranked, one pair with its case, and a
hand with every card face up (staff only: a player never sees a folded card, R-HIST-2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from accounts.models import Player
from accounts.money import cents_format
from integrity.models import IntegrityCase, PairReview, SharedAddressAllowance, Suspension
from stud import StudHand
from stud.actions import Abandon, Action, Show, TimeOut
from stud.cards import card_text
from tables.models import Hand

SIGNAL_TITLES = {
    "soft_play": "Soft play",
    "chip_dumping": "Chip dumping",
    "strong_folds": "Strong hands folded",
    "folded_cards": "Played on the partner's folded cards",
    "sitting_together": "Sitting together",
}


def pairs_ranked(*, flagged_only: bool = True, limit: int = 100) -> QuerySet[PairReview]:
    pairs = PairReview.objects.select_related("player_low", "player_high").order_by(
        "-flagged", "-score", "id"
    )
    if flagged_only:
        pairs = pairs.filter(flagged=True)
    return pairs[:limit]


@dataclass(frozen=True)
class PairPage:
    review: PairReview
    case: IntegrityCase | None
    cases: list[IntegrityCase]
    allowance: SharedAddressAllowance | None
    suspended: set[int]


def pair_page(*, pair_id: int) -> PairPage | None:
    review = (
        PairReview.objects.select_related("player_low", "player_high").filter(pk=pair_id).first()
    )
    if review is None:
        return None
    cases = list(
        review.cases.select_related("opened_by", "decided_by").prefetch_related("notes__staff")
    )
    open_case = next((c for c in cases if c.status == "open"), None)
    allowance = SharedAddressAllowance.objects.filter(
        player_low_id=review.player_low_id, player_high_id=review.player_high_id
    ).first()
    suspended = set(
        Suspension.objects.filter(
            player_id__in=[review.player_low_id, review.player_high_id], lifted_at__isnull=True
        ).values_list("player_id", flat=True)
    )
    return PairPage(review, open_case, cases, allowance, suspended)


def signal_rows(review: PairReview) -> list[dict[str, Any]]:
    """The pair's signals for the page: its title, its words, its hands; flagged first."""
    rows = [
        {**signal, "title": SIGNAL_TITLES.get(signal["kind"], signal["kind"])}
        for signal in review.signals
    ]
    return sorted(rows, key=lambda s: (not s["flagged"], -s["z"]))


# --- a hand face up ------------------------------------------------------------------------


@dataclass(frozen=True)
class FaceUpSeat:
    seat: int
    name: str
    player_id: int
    down: list[str]
    up: list[str]
    status: str
    net: int

    @property
    def net_text(self) -> str:
        if self.net > 0:
            return f"won {cents_format(self.net)}"
        return f"lost {cents_format(-self.net)}" if self.net else "even"


@dataclass(frozen=True)
class FaceUpHand:
    hand: Hand
    seats: list[FaceUpSeat]
    streets: list[tuple[int, list[str]]]  # street -> the actions, in words
    community: str | None


def _street_name(street: int) -> str:
    return {3: "Third street", 4: "Fourth street", 5: "Fifth street", 6: "Sixth street"}.get(
        street, "Seventh street"
    )


def hand_face_up(*, hand_id: int) -> FaceUpHand | None:
    """Every card of a finished hand, down cards included, and every action by street."""
    hand = Hand.objects.filter(pk=hand_id, ended_at__isnull=False).select_related("table").first()
    if hand is None:
        return None
    final = StudHand.from_json(hand.state)
    players = {int(seat): int(pid) for seat, pid in hand.players.items()}
    names = dict(Player.objects.filter(pk__in=players.values()).values_list("pk", "username"))
    result = final.result
    seats = [
        FaceUpSeat(
            seat=p.seat,
            name=f"{p.name} ({names.get(players.get(p.seat, 0), '?')})",
            player_id=players.get(p.seat, 0),
            down=[card_text(c) for c in final.down_cards(p.seat)],
            up=[card_text(c) for c in final.up_cards(p.seat)],
            status=final.status_of(p.seat),
            net=(result.stack(p.seat) - p.stack) if result is not None else 0,
        )
        for p in final.players
    ]
    engine, _ = StudHand.start(
        final.config, final.players, final.deck, final.button, reshuffle_seed=final.reshuffle_seed
    )
    streets: list[tuple[int, list[str]]] = []
    seat_names = {p.seat: p.name for p in final.players}
    for record in final.log:
        if not streets or streets[-1][0] != engine.street:
            streets.append((engine.street, []))
        who = seat_names.get(record.seat, str(record.seat))
        if isinstance(record, Action):
            amount = f" to {record.amount}" if record.amount else ""
            streets[-1][1].append(f"{who} {record.kind.value}{amount}")
            engine, _ = engine.apply(record)
        elif isinstance(record, TimeOut):
            streets[-1][1].append(f"{who} timed out")
            engine, _ = engine.time_out(record.seat, record.protected)
        elif isinstance(record, Abandon):
            streets[-1][1].append(f"{who} left the table")
            engine, _ = engine.abandon(record.seat)
        elif isinstance(record, Show):
            streets[-1][1].append(f"{who} showed")
            engine, _ = engine.show_cards(record.seat)
    community = final.community_card
    return FaceUpHand(
        hand=hand,
        seats=seats,
        streets=[(street, actions) for street, actions in streets],
        community=card_text(community) if community is not None else None,
    )


def street_title(street: int) -> str:
    return _street_name(street)
