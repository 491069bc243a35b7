""" "Email me these hands" (R-HIST-2): the request, limited per player per hour, and the
sending, which a Celery task does after commit. "Keep in my account" for a player's own
imported hands (issue #24 item 5), and their deletion.

The emailed copy is the player's own copy plus the cards mucked at showdown (seed 000).
Mail goes through Django's EMAIL_BACKEND: the file backend in `make run`, SMTP when the
environment says so.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils import timezone

from accounts.models import Player
from histories.models import ImportedHand
from histories.selectors import hands_text, played_hands
from stud.history_in import read_histories
from stud.read_hand import HistoryRefused
from tables.models import HistoryEmailRequest
from tables.services.outbox import on_commit_logged

MAX_HANDS_PER_EMAIL = 500


def emails_per_hour() -> int:
    return int(getattr(settings, "HISTORY_EMAILS_PER_HOUR", 5))


@dataclass(frozen=True)
class HistoryEmailResult:
    ok: bool
    error: str | None = None  # no_hands | too_many | no_email | rate_limited
    message: str = ""
    request_id: int | None = None


# The task's registered name (histories/tasks.py): sent by name, so this module imports no
# task and the task imports this module (pyproject.toml's import contract).
EMAIL_HAND_HISTORIES = "tables.tasks.email_hand_histories"


def _schedule_send(request_id: int) -> None:
    current_app.send_task(EMAIL_HAND_HISTORIES, args=(request_id,))


def history_email_request(
    *, player: Player, hand_ids: Sequence[int], now: datetime | None = None
) -> HistoryEmailResult:
    """Record the request and send it after commit. Only hands the player played count;
    at most `HISTORY_EMAILS_PER_HOUR` requests in any hour (the player's row is locked so
    two tabs cannot both pass the count)."""
    now = timezone.now() if now is None else now
    wanted = sorted({int(hand_id) for hand_id in hand_ids})
    if len(wanted) > MAX_HANDS_PER_EMAIL:
        return HistoryEmailResult(
            False, "too_many", f"At most {MAX_HANDS_PER_EMAIL} hands in one email."
        )
    with transaction.atomic():
        locked = Player.objects.select_for_update().filter(pk=player.pk).first()
        if locked is None:  # pragma: no cover - the caller is a logged-in player
            return HistoryEmailResult(False, "no_email", "No such player.")
        if not locked.email:
            return HistoryEmailResult(False, "no_email", "Your account has no email address.")
        if not locked.email_confirmed:  # issue #22: only to an address its owner confirmed
            return HistoryEmailResult(
                False,
                "no_email",
                "Confirm your email address first: open the link we mailed you "
                "(My account can send it again).",
            )
        mine = (
            [p.hand.pk for p in played_hands(player_id=locked.pk, hand_ids=wanted)]
            if wanted
            else []
        )
        if not mine:
            return HistoryEmailResult(False, "no_hands", "Choose hands you played.")
        recent = HistoryEmailRequest.objects.filter(
            player=locked, created_at__gt=now - timedelta(hours=1)
        ).count()
        limit = emails_per_hour()
        if recent >= limit:
            return HistoryEmailResult(
                False,
                "rate_limited",
                f"You can ask for {limit} history emails an hour; try again later.",
            )
        request = HistoryEmailRequest.objects.create(
            player=locked, hand_ids=sorted(mine), email=locked.email, created_at=now
        )
        request_id = request.pk
        on_commit_logged(lambda: _schedule_send(request_id), what="queueing a history email")
    return HistoryEmailResult(
        True, None, f"{len(mine)} hand(s) will be emailed to {locked.email}.", request_id
    )


def history_email_send(*, request_id: int, now: datetime | None = None) -> str:
    """Send one request's histories as a text attachment and record when it went.
    Returns "sent", "already_sent", "not_found" or "failed" (the error is kept on the row)."""
    request = HistoryEmailRequest.objects.filter(pk=request_id).first()
    if request is None:
        return "not_found"
    if request.sent_at is not None:
        return "already_sent"
    hands = list(reversed(played_hands(player_id=request.player_id, hand_ids=request.hand_ids)))
    body = (
        f"Your {len(hands)} hand history(ies) from the Stud Room are attached in the "
        "PokerStars text format. Cards mucked at showdown are shown (R-HIST-2).\n"
    )
    message = EmailMessage(
        subject=f"Your hand histories ({len(hands)} hand(s))",
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[request.email],
    )
    message.attach("hand-histories.txt", hands_text(hands, copy="email"), "text/plain")
    try:
        message.send()
    except Exception as error:
        with transaction.atomic():
            HistoryEmailRequest.objects.filter(pk=request_id).update(
                error=f"Could not send: {error}"[:200]
            )
        return "failed"
    with transaction.atomic():
        HistoryEmailRequest.objects.filter(pk=request_id).update(
            sent_at=timezone.now() if now is None else now, error=""
        )
    return "sent"


# --- a player's own hand histories, kept (issue #24 item 5) --------------------------------

MAX_KEPT_IMPORTS = 1000


@dataclass(frozen=True)
class ImportKeepResult:
    ok: bool
    message: str
    kept_ids: tuple[int, ...] = ()  # every hand of the text now in the account, in its order


def _digest(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()


def imported_hands_keep(
    *, player: Player, text: str, now: datetime | None = None
) -> ImportKeepResult:
    """ "Keep in my account": every hand of ``text`` that adds up is kept once (a hand kept
    before is not kept again). The text comes back from the browser, so it is read and
    checked again here; at most MAX_KEPT_IMPORTS hands an account (the player's row is
    locked so two tabs cannot both pass the count)."""
    now = timezone.now() if now is None else now
    try:
        history = read_histories(text)
    except HistoryRefused as refused:
        return ImportKeepResult(False, str(refused))
    hands = history.read
    if not hands:
        return ImportKeepResult(False, "No hand in it adds up: nothing was kept.")
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        mine = ImportedHand.objects.filter(player=locked)
        have = dict(mine.values_list("digest", "pk"))
        new = {_digest(hand.source): hand for hand in hands if _digest(hand.source) not in have}
        if mine.count() + len(new) > MAX_KEPT_IMPORTS:
            return ImportKeepResult(
                False,
                f"An account keeps at most {MAX_KEPT_IMPORTS} imported hands: delete some first.",
            )
        for digest, hand in new.items():
            have[digest] = ImportedHand.objects.create(
                player=locked,
                format=hand.format,
                title=hand.title[:120],
                game=hand.hand.config.game.value,
                table_name=hand.table_name[:120],
                started_at=hand.started_at[:60],
                source=hand.source,
                digest=digest,
                kept_at=now,
            ).pk
    kept = tuple(dict.fromkeys(have[_digest(hand.source)] for hand in hands))
    message = f"{len(new)} hand(s) kept in your account."
    if len(new) < len(kept):
        message += f" {len(kept) - len(new)} were kept already."
    return ImportKeepResult(True, message, kept)


def imported_hand_delete(*, player: Player, imported_id: int) -> bool:
    """Delete one of the player's kept hands; False when it is not theirs."""
    with transaction.atomic():
        deleted, _ = ImportedHand.objects.filter(player=player, pk=imported_id).delete()
    return deleted > 0
