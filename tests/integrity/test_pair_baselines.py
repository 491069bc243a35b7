"""Issue #25: a pair signal compares a player's play toward the partner both with the
player's own play toward everyone else and with everyone else's play toward the same partner.
A loose player bets junk, so everyone folds the better hand to them and raises them less
heads-up: an honest player who does so no more than everyone else is not flagged. A player
who treats one partner unlike everyone else does (soft play, chip dumping) still is."""

from __future__ import annotations

import random
from typing import Any

import pytest

from integrity.models import PairReview
from integrity.services import integrity_scan
from integrity.signals import pair_findings
from stud import StudHand
from tables import services
from tables.models import Seat, Table
from tests.history_hands import bettor, hold_scheduling, play_hand
from tests.integrity.test_integrity_signals import deck_text
from tests.table_factories import make_table, seated_player

NAMES = {1: "hones4", 2: "loose12", 3: "soft7"}


def money(cents: int) -> str:
    return f"${cents / 100:.2f}"


def findings(*, mine: dict[str, Any], actor: dict[str, Any], toward: dict[str, Any]):
    """Player 1's play toward player 2: `mine` toward 2, `actor` 1's totals toward everyone,
    `toward` everyone's totals toward 2."""
    return pair_findings(
        low=1,
        high=2,
        names=NAMES,
        counts={"low>high": mine},
        totals={1: actor, 2: {"toward": toward}},
        hands_together=200,
        shared_address_seats=0,
        money=money,
    )


def test_folding_the_better_hand_to_a_loose_bettor_as_everyone_does_is_not_flagged():
    """hones4 folds the better hand to loose12's bets 26 times in 124 (21%), against 8% to
    everyone else's: on the player's own baseline alone that is 4+ standard errors. But
    everyone else folds the better hand to loose12's bets 21% of the time too."""
    found = findings(
        mine={"facing": 124, "folds_ahead": 26, "chips_to": 5000},
        actor={"facing": 624, "folds_ahead": 66},
        toward={"facing": 724, "folds_ahead": 152},
    )
    [signal] = found.signals
    assert signal.kind == "chip_dumping" and not signal.flagged and not found.flagged
    assert signal.words == (
        "hones4 folded the better hand to loose12's bet 26 times in 124 bets faced (21%), "
        "against 8% to everyone else's bets; everyone else folded the better hand to "
        "loose12's bets in 21% of 600 bets faced; $50.00 went from hones4 to loose12 in all"
    )


def test_raising_a_loose_bettor_heads_up_less_as_everyone_does_is_not_soft_play():
    found = findings(
        mine={"hu_chances": 53, "hu_raises": 26},
        actor={"hu_chances": 253, "hu_raises": 204},
        toward={"hu_chances": 453, "hu_raises": 226},
    )
    [signal] = found.signals
    assert signal.kind == "soft_play" and not found.flagged
    assert signal.words.endswith("; everyone else raised loose12 heads-up in 50% of 400 chances")


def test_a_chip_dumper_is_flagged_against_both_baselines():
    """The dumper folds the better hand to the partner's bets 60 times in 120 (50%), against
    8% to others; everyone else folds the better hand to the partner's bets 10% of the time."""
    found = findings(
        mine={"facing": 120, "folds_ahead": 60, "chips_to": 90000},
        actor={"facing": 620, "folds_ahead": 100},
        toward={"facing": 720, "folds_ahead": 120},
    )
    [signal] = found.signals
    assert signal.kind == "chip_dumping" and signal.flagged and found.flagged
    assert "everyone else folded the better hand to loose12's bets in 10% of 600" in (signal.words)


def test_a_soft_player_is_flagged_against_both_baselines():
    found = findings(
        mine={"hu_chances": 60, "hu_raises": 2},
        actor={"hu_chances": 360, "hu_raises": 212},
        toward={"hu_chances": 460, "hu_raises": 282},
    )
    [signal] = found.signals
    assert signal.kind == "soft_play" and signal.flagged
    assert signal.words == (
        "hones4 raised loose12 heads-up twice in 60 chances (3%), against 70% of 300 "
        "heads-up chances against everyone else; everyone else raised loose12 heads-up in "
        "70% of 400 chances"
    )


def test_with_too_few_spots_of_everyone_else_toward_the_partner_nothing_is_flagged_yet():
    found = findings(
        mine={"facing": 120, "folds_ahead": 60},
        actor={"facing": 620, "folds_ahead": 100},
        toward={"facing": 125, "folds_ahead": 61},
    )
    [signal] = found.signals
    assert not signal.flagged
    assert "too few spots of everyone else toward loose12 (5)" in signal.words


# --- through the scan ----------------------------------------------------------------------


def folds_to(loose_seat: int):
    """Folds whenever the loose seat's bet is to be called; bets or raises when it can
    otherwise, else calls or checks."""

    def strategy(table: Table, player, engine: StudHand, seat: int) -> tuple[str, int]:
        offers = engine.legal_actions(seat)
        kinds = {o.kind.value for o in offers}
        aggressor = (
            engine.players[engine.last_aggressor].seat if engine.last_aggressor >= 0 else None
        )
        if "fold" in kinds and engine.current_bet > engine.bet(seat) and aggressor == loose_seat:
            return "fold", 0
        return bettor(table, player, engine, seat)

    return strategy


@pytest.mark.django_db
def test_the_scan_flags_nobody_when_everyone_folds_to_the_loose_bettor_alike(monkeypatch):
    """Seats 1, 3 and 4 each fold to loose seat 2's bets whatever they hold and bet into
    each other. Each folds the better hand to seat 2 far more than to anyone else (the
    player's own baseline alone would flag all three pairs), but no more than everyone else
    does: no pair is flagged, and the words say everyone else folds to seat 2 alike."""
    hold_scheduling(monkeypatch)
    table = make_table(heads_up_raises=2)
    players = {s: seated_player(table, seat_number=s, balance=200_000) for s in (1, 2, 3, 4)}
    rng = random.Random(11)
    strategies = {1: folds_to(2), 2: bettor, 3: folds_to(2), 4: folds_to(2)}
    for _ in range(40):
        play_hand(table, players, deck_text(rng), strategies=strategies)
        for seat in Seat.objects.filter(table=table, stack__lt=1000):
            services.seat_add_chips(table_id=table.pk, player=seat.player, amount=5000)

    assert integrity_scan().hands_read == 40

    assert not PairReview.objects.filter(flagged=True).exists()
    loose = players[2]
    dumping = []
    for s in (1, 3, 4):
        low, high = sorted((players[s].pk, loose.pk))
        review = PairReview.objects.get(player_low_id=low, player_high_id=high)
        dumping += [x for x in review.signals if x["kind"] == "chip_dumping"]
    assert dumping
    for signal in dumping:
        assert not signal["flagged"]
        assert (
            "against 0% to everyone else's bets; everyone else folded the better hand to "
            f"{loose.table_name}'s bets in "
        ) in signal["words"]


@pytest.mark.django_db
def test_a_pair_that_no_longer_meets_is_recomputed_when_either_plays_others(monkeypatch):
    """Issue #25 (stale flags): alice and zed were flagged once, and now only play at other
    tables. A scan that reads a hand of alice's with others recomputes the pair from the
    totals now, instead of leaving its flag as it was."""
    from datetime import UTC, datetime

    from tests.factories import PlayerFactory
    from tests.history_hands import three_handed_hand

    hold_scheduling(monkeypatch)
    played = three_handed_hand()
    alice, zed = played.players[1], PlayerFactory()
    low, high = sorted((alice.pk, zed.pk))
    stale = PairReview.objects.create(
        player_low_id=low, player_high_id=high, hands_together=30, flagged=True, score=9.0
    )
    at = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)

    integrity_scan(now=at)

    stale.refresh_from_db()
    assert stale.updated_at == at
    assert not stale.flagged and stale.signals == []  # no counts of theirs flag anything
