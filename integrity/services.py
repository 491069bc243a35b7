"""The integrity app's writes (issue #25): the scan of new hands into pair signals, and the
staff's cases (notes, decisions, suspensions) and shared-address allowances, each audit-logged
through accounts.services.staff_action_record in the same transaction."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import models, transaction
from django.utils import timezone

from accounts.models import Player
from accounts.money import cents_format
from accounts.services import staff_action_record
from integrity.models import (
    CaseNote,
    CaseStatus,
    IntegrityCase,
    IntegrityScan,
    PairReview,
    PlayerTally,
    SeatAddress,
    SharedAddressAllowance,
    Suspension,
)
from integrity.reading import read_hand
from integrity.signals import HandCounts, count_hand, merge, pair_findings
from tables.models import Hand, Seat

SCAN_BATCH = 500


class CaseRefused(Exception):
    """A case action that cannot be done (a decided case, an empty note)."""


@dataclass(frozen=True)
class ScanResult:
    hands_read: int
    pairs_updated: int
    flagged: int


def _ordered(a: int, b: int) -> tuple[int, int, str]:
    """The pair's (low, high) ids and the direction key of a's play toward b."""
    return (a, b, "low>high") if a < b else (b, a, "high>low")


def integrity_scan(*, now: datetime | None = None, limit: int | None = None) -> ScanResult:
    """Read the hands finished since the last scan into the pairs' counts and recompute the
    signals of every pair they touch (the periodic task, and staff's "scan now"). The scan
    row is locked, so two scans never count a hand twice."""
    now = timezone.now() if now is None else now
    with transaction.atomic():
        scan, _ = IntegrityScan.objects.select_for_update().get_or_create(pk=1)
        hands = Hand.objects.filter(pk__gt=scan.last_hand_id, ended_at__isnull=False).order_by("pk")
        # A hand still in play with a smaller id than one finished: wait for it.
        running = Hand.objects.filter(pk__gt=scan.last_hand_id, ended_at__isnull=True)
        first_running = running.order_by("pk").values_list("pk", flat=True).first()
        if first_running is not None:
            hands = hands.filter(pk__lt=first_running)
        rows = list(hands.values_list("pk", "state", "players")[: limit or None])
        player_counts: dict[int, dict[str, Any]] = {}
        pair_counts: dict[tuple[int, int], dict[str, Any]] = {}
        together: dict[tuple[int, int], list[int]] = {}
        for hand_id, state, players in rows:
            read = read_hand(hand_id=hand_id, state=state, players=players)
            if read is None:
                continue
            _add(count_hand(read), hand_id, player_counts, pair_counts, together)
        if rows:
            scan.last_hand_id = rows[-1][0]
            scan.hands_read += len(rows)
        scan.scanned_at = now
        scan.save()
        touched = _store(player_counts, pair_counts, together, now)
        flagged = PairReview.objects.filter(flagged=True).count()
    return ScanResult(hands_read=len(rows), pairs_updated=touched, flagged=flagged)


def _add(
    counted: HandCounts,
    hand_id: int,
    player_counts: dict[int, dict[str, Any]],
    pair_counts: dict[tuple[int, int], dict[str, Any]],
    together: dict[tuple[int, int], list[int]],
) -> None:
    for player_id, counts in counted.players.items():
        merge(player_counts.setdefault(player_id, {}), counts)
    for (actor, opponent), counts in counted.pairs.items():
        low, high, key = _ordered(actor, opponent)
        merge(pair_counts.setdefault((low, high), {}).setdefault(key, {}), counts)
    for low, high in counted.together:
        together.setdefault((low, high), []).append(hand_id)


def _store(
    player_counts: dict[int, dict[str, Any]],
    pair_counts: dict[tuple[int, int], dict[str, Any]],
    together: dict[tuple[int, int], list[int]],
    now: datetime,
) -> int:
    for player_id, counts in player_counts.items():
        tally, _ = PlayerTally.objects.select_for_update().get_or_create(player_id=player_id)
        merge(tally.counts, counts)
        tally.save(update_fields=["counts"])
    pairs = set(pair_counts) | set(together)
    for low, high in pairs:
        review, _ = PairReview.objects.select_for_update().get_or_create(
            player_low_id=low, player_high_id=high
        )
        for key, counts in pair_counts.get((low, high), {}).items():
            merge(review.counts.setdefault(key, {}), counts)
        hands = together.get((low, high), [])
        review.hands_together += len(hands)
        merge(review.counts, {"together_hands": hands})
        review.save(update_fields=["counts", "hands_together"])
    # A pair's signals read both players' totals, which hands with others change too: every
    # pair of a player read in these hands is recomputed, not only the pairs that sat
    # together in them (else a pair that no longer meets keeps a stale flag).
    touched = set(player_counts)
    pairs |= set(
        PairReview.objects.filter(
            models.Q(player_low_id__in=touched) | models.Q(player_high_id__in=touched)
        ).values_list("player_low_id", "player_high_id")
    )
    pair_review_recompute(pairs=pairs, now=now)
    return len(pairs)


def _money(amount: int) -> str:
    return cents_format(amount)


def shared_address_seats(low: int, high: int) -> int:
    """Times one of the pair took a seat at a table from an address the other had taken a
    seat there from (whether or not staff allowed it since)."""
    mine = SeatAddress.objects.filter(player_id=low).values_list("table_id", "address")
    theirs = set(SeatAddress.objects.filter(player_id=high).values_list("table_id", "address"))
    return sum(1 for place in mine if place in theirs)


def pair_review_recompute(
    *, pairs: set[tuple[int, int]], now: datetime, money: Callable[[int], str] = _money
) -> None:
    """The signals of these pairs from their counts (and the players' totals) now."""
    if not pairs:
        return
    ids = {pid for pair in pairs for pid in pair}
    names = {p.pk: p.table_name for p in Player.objects.filter(pk__in=ids)}
    totals = {t.player_id: t.counts for t in PlayerTally.objects.filter(player_id__in=ids)}
    for review in PairReview.objects.filter(
        player_low_id__in={p[0] for p in pairs}, player_high_id__in={p[1] for p in pairs}
    ):
        if (review.player_low_id, review.player_high_id) not in pairs:
            continue
        findings = pair_findings(
            low=review.player_low_id,
            high=review.player_high_id,
            names=names,
            counts=review.counts,
            totals=totals,
            hands_together=review.hands_together,
            shared_address_seats=shared_address_seats(review.player_low_id, review.player_high_id),
            money=money,
        )
        review.signals = [signal.to_json() for signal in findings.signals]
        review.score = findings.score
        review.flagged = findings.flagged
        review.updated_at = now
        review.save(update_fields=["signals", "score", "flagged", "updated_at"])


# --- staff: cases, decisions, allowances ---------------------------------------------------


def _pair_reference(review: PairReview) -> str:
    return f"pair:{review.player_low_id}-{review.player_high_id}"


def case_open(*, pair_id: int, staff: Player, now: datetime | None = None) -> IntegrityCase:
    """Open a case on a pair (or return its open one)."""
    now = timezone.now() if now is None else now
    with transaction.atomic():
        review = PairReview.objects.select_for_update().get(pk=pair_id)
        case = review.cases.filter(status=CaseStatus.OPEN).first()
        if case is not None:
            return case
        case = IntegrityCase.objects.create(pair=review, opened_by=staff, opened_at=now)
        staff_action_record(
            staff=staff,
            action="integrity_case_open",
            target=f"integrity_case:{case.pk}",
            detail=f"case on {review} ({_pair_reference(review)})",
            now=now,
        )
    return case


def case_note_add(
    *, case_id: int, staff: Player, text: str, now: datetime | None = None
) -> CaseNote:
    now = timezone.now() if now is None else now
    text = text.strip()
    if not text:
        raise CaseRefused("A note needs some text.")
    with transaction.atomic():
        case = IntegrityCase.objects.select_for_update().get(pk=case_id)
        note = CaseNote.objects.create(case=case, staff=staff, text=text[:4000], at=now)
        staff_action_record(
            staff=staff,
            action="integrity_case_note",
            target=f"integrity_case:{case.pk}",
            detail=text[:300],
            now=now,
        )
    return note


DECISIONS = (CaseStatus.CLEARED, CaseStatus.WARNED, CaseStatus.SUSPENDED)


def case_decide(
    *,
    case_id: int,
    staff: Player,
    decision: str,
    note: str = "",
    suspend: list[int] | None = None,
    now: datetime | None = None,
) -> IntegrityCase:
    """Staff decide an open case: cleared, warned, or suspended. A suspension (of both
    players, or of those named in `suspend`) holds each one's wallet for review at once (no
    withdrawal) and ends their play when the hand in play ends (tables.services.flow stands
    them up then, their stack going back to the wallet); a seat with no hand in play is
    cashed out now. No ledger row changes: the balance stays the sum of its rows."""
    now = timezone.now() if now is None else now
    if decision not in DECISIONS:
        raise CaseRefused("Decide cleared, warned or suspended.")
    with transaction.atomic():
        case = IntegrityCase.objects.select_for_update().select_related("pair").get(pk=case_id)
        if case.status != CaseStatus.OPEN:
            raise CaseRefused(f"Case #{case.pk} was already decided: {case.status}.")
        pair = (case.pair.player_low_id, case.pair.player_high_id)
        suspended = [pid for pid in (suspend or list(pair)) if pid in pair]
        case.status = decision
        case.decided_by = staff
        case.decided_at = now
        case.save(update_fields=["status", "decided_by", "decided_at"])
        if note.strip():
            CaseNote.objects.create(case=case, staff=staff, text=note.strip()[:4000], at=now)
        detail = f"{decision}: {case.pair}" + (f": {note.strip()}" if note.strip() else "")
        staff_action_record(
            staff=staff,
            action=f"integrity_case_{decision}",
            target=f"integrity_case:{case.pk}",
            detail=detail[:300],
            now=now,
        )
        if decision == CaseStatus.SUSPENDED:
            for player_id in suspended:
                Suspension.objects.create(player_id=player_id, case=case, since=now)
                staff_action_record(
                    staff=staff,
                    action="integrity_suspend",
                    target=Player.objects.get(pk=player_id),
                    detail=f"case #{case.pk}: play stopped at the end of the hand, wallet held",
                    now=now,
                )
    if decision == CaseStatus.SUSPENDED:
        _stand_up_between_hands(suspended, now=now)
    return case


def _stand_up_between_hands(player_ids: list[int], *, now: datetime) -> None:
    """Seats of suspended players at tables with no hand in play that deals them: cashed out
    now (through the table service). The others go when their hand ends."""
    from tables.services import seat_leave

    for seat in Seat.objects.filter(player_id__in=player_ids).select_related("player"):
        running = Hand.objects.filter(table_id=seat.table_id, ended_at__isnull=True).first()
        if running is not None and running.seat_is_dealt(seat):
            continue
        seat_leave(table_id=seat.table_id, player=seat.player, now=now)


def suspension_lift(*, player_id: int, staff: Player, now: datetime | None = None) -> int:
    now = timezone.now() if now is None else now
    with transaction.atomic():
        lifted = 0
        for suspension in Suspension.objects.select_for_update().filter(
            player_id=player_id, lifted_at__isnull=True
        ):
            suspension.lifted_at = now
            suspension.save(update_fields=["lifted_at"])
            lifted += 1
        if lifted:
            staff_action_record(
                staff=staff,
                action="integrity_suspension_lift",
                target=Player.objects.get(pk=player_id),
                detail="suspension lifted: play and withdrawals allowed again",
                now=now,
            )
    return lifted


def shared_address_allow(
    *, player_a: int, player_b: int, reason: str, staff: Player, now: datetime | None = None
) -> SharedAddressAllowance:
    """Staff allow two players to sit at one table from one address, for a reason."""
    now = timezone.now() if now is None else now
    reason = reason.strip()
    if not reason:
        raise CaseRefused("Say why these two may share an address.")
    if player_a == player_b:
        raise CaseRefused("Name two different players.")
    low, high = sorted((player_a, player_b))
    with transaction.atomic():
        allowance, _ = SharedAddressAllowance.objects.get_or_create(
            player_low_id=low,
            player_high_id=high,
            defaults={"reason": reason[:300], "allowed_by": staff, "at": now},
        )
        staff_action_record(
            staff=staff,
            action="integrity_shared_address_allow",
            target=f"pair:{low}-{high}",
            detail=reason[:300],
            now=now,
        )
    return allowance
