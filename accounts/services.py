"""Every write to players' money and accounts goes through here.

Each wallet movement is one transaction: lock the player row (select_for_update), check, write
the ledger row and the new balance together. Concurrent debits therefore queue on the lock and
can never overdraw. Money is integer cents throughout.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.authtoken.models import Token

from accounts.email_confirmation import email_confirm_mail, sign_up_notice_mail
from accounts.limits import STAKE_KINDS, break_in_force, stake_check
from accounts.models import (
    CREDIT_KINDS,
    DEBIT_KINDS,
    AccountMail,
    AccountMailKind,
    CashierKind,
    CashierRequest,
    CashierStatus,
    ChatMute,
    LedgerEntry,
    LedgerKind,
    MoneyMove,
    MoneyMoveStatus,
    Player,
    PlayerSession,
    StaffAction,
    StaffActionKind,
)
from accounts.money import cents_format
from accounts.names import name_check
from accounts.selectors import email_confirmed_by_another, session_store
from accounts.signals import auto_ante_turned_on, play_break_taken
from integrity.holds import is_suspended
from pokerroom.room_day import room_day, room_moment_text

logger = logging.getLogger(__name__)


class WalletError(ValueError):
    """A wallet movement that the room refuses; the message is fit to show staff."""


class InsufficientBalance(WalletError):
    """A debit larger than the balance: refused, nothing written."""

    def __init__(self, *, player_id: int, balance: int, amount: int) -> None:
        self.player_id = player_id
        self.balance = balance
        self.amount = amount
        super().__init__(
            f"Insufficient balance: {cents_format(amount)} asked for, "
            f"only {cents_format(balance)} available."
        )


class SecondApprovalNeeded(WalletError):
    """A staff move of money that one person may not make alone (issue #22): it goes through
    `wallet_staff_move`, which keeps it waiting for a second member of staff."""


# --- Two people for money (issue #22) -------------------------------------------------------


def money_second_approval_needed(*, player: Player, amount: int) -> bool:
    """Whether moving `amount` cents to or from `player` on a staff member's say needs a
    second member of staff: a staff account's money, or more than
    settings.MONEY_SECOND_APPROVAL_CENTS."""
    return bool(player.is_staff) or amount > settings.MONEY_SECOND_APPROVAL_CENTS


def _approver_check(staff: Player, *, what: str) -> None:
    """Only active staff with the money permission approve a move of money."""
    if not (staff.is_active and staff.is_staff and staff.has_perm("accounts.move_money")):
        raise WalletError(
            f"{what}: only staff with the permission to move money (accounts.move_money) "
            f"may approve it."
        )


# --- The wallet -----------------------------------------------------------------------------


def _check_movement(
    *, amount: int, debit: bool, kind: str, staff: Player | None, reason: str
) -> None:
    """Refuse (WalletError) a movement no balance may make: a kind that moves the other way, an
    amount that is not a positive whole number of cents, staff without a reason."""
    if kind not in (DEBIT_KINDS if debit else CREDIT_KINDS):
        raise WalletError(f"{kind!r} does not {'debit' if debit else 'credit'} a balance.")
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise WalletError("The amount must be a whole number of cents.")
    if amount <= 0:
        raise WalletError("The amount must be positive.")
    if staff is not None and not reason.strip():
        raise WalletError("A staff credit or debit needs a reason.")
    if kind == LedgerKind.ADJUSTMENT and (staff is None or not reason.strip()):
        raise WalletError("An adjustment is made by staff, with a reason.")


def _wallet_move(
    *,
    player_id: int,
    amount: int,
    debit: bool,
    kind: str,
    staff: Player | None,
    reason: str,
    reference: str,
    staff_action: bool = True,
    second_person: Player | None = None,
) -> LedgerEntry:
    """The one way a balance changes: check the movement, lock the player row, refuse a
    debit larger than the balance, then append the ledger row and write the balance it
    explains, in one transaction. A movement by staff is also a StaffAction (a credit or a
    debit), unless the caller records its own (`staff_action=False`: the cashier).

    A movement by staff that needs two people (`money_second_approval_needed`) is refused
    (SecondApprovalNeeded) unless the caller names the `second_person`, another member of
    staff who approved it (money_move_approve, cashier_approve)."""
    _check_movement(amount=amount, debit=debit, kind=kind, staff=staff, reason=reason)
    if staff is not None and second_person is not None and second_person.pk == staff.pk:
        raise SecondApprovalNeeded("The second person must be another member of staff.")
    signed_amount = -amount if debit else amount
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player_id)
        if (
            staff is not None
            and second_person is None
            and money_second_approval_needed(player=player, amount=amount)
        ):
            raise SecondApprovalNeeded(
                f"A move of {cents_format(amount)} "
                f"{'from' if debit else 'to'} {player.username} needs a second member of "
                f"staff's approval."
            )
        new_balance = player.balance + signed_amount
        if new_balance < 0:
            raise InsufficientBalance(player_id=player_id, balance=player.balance, amount=amount)
        if debit and kind in STAKE_KINDS:
            stake_check(player_id=player_id, amount=amount)  # the player's limits (issue #26)
        Player.objects.filter(pk=player_id).update(balance=new_balance)
        player.balance = new_balance
        entry = LedgerEntry.objects.create(
            player=player,
            kind=kind,
            amount=signed_amount,
            balance_after=new_balance,
            staff=staff,
            reason=reason.strip(),
            reference=reference,
        )
        if staff is not None and staff_action:
            staff_action_record(
                staff=staff,
                action=StaffActionKind.WALLET_DEBIT if debit else StaffActionKind.WALLET_CREDIT,
                target=player,
                detail=f"{entry.get_kind_display()} of {cents_format(amount)}: {entry.reason}",
                now=entry.created_at,
            )
        return entry


def wallet_credit(
    *,
    player_id: int,
    amount: int,
    kind: str,
    staff: Player | None = None,
    reason: str = "",
    reference: str = "",
) -> LedgerEntry:
    """Add `amount` cents to a player's balance (a deposit, cash-out, prize or adjustment)."""
    return _wallet_move(
        player_id=player_id,
        amount=amount,
        debit=False,
        kind=kind,
        staff=staff,
        reason=reason,
        reference=reference,
    )


def wallet_debit(
    *,
    player_id: int,
    amount: int,
    kind: str,
    staff: Player | None = None,
    reason: str = "",
    reference: str = "",
) -> LedgerEntry:
    """Take `amount` cents from a player's balance; InsufficientBalance if they lack it."""
    return _wallet_move(
        player_id=player_id,
        amount=amount,
        debit=True,
        kind=kind,
        staff=staff,
        reason=reason,
        reference=reference,
    )


class MoneyMoveRefused(WalletError):
    """A decision on a money move the room refuses (one's own, decided already); nothing
    written."""


def wallet_staff_move(
    *,
    player_id: int,
    amount: int,
    debit: bool,
    kind: str,
    staff: Player,
    reason: str,
    now: datetime,
) -> LedgerEntry | MoneyMove:
    """Staff credit or debit a player (the admin's wallet form). One person may do it alone
    (the ledger row now, as wallet_credit/wallet_debit) unless it needs two
    (`money_second_approval_needed`: a staff account, or more than
    MONEY_SECOND_APPROVAL_CENTS); then nothing moves and a pending MoneyMove waits for
    another member of staff (money_move_approve), recorded in the staff audit log.

    A debit larger than the balance is refused at once either way (InsufficientBalance).
    """
    _check_movement(amount=amount, debit=debit, kind=kind, staff=staff, reason=reason)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player_id)
        if not money_second_approval_needed(player=player, amount=amount):
            move = wallet_debit if debit else wallet_credit
            return move(player_id=player_id, amount=amount, kind=kind, staff=staff, reason=reason)
        if debit and amount > player.balance:
            raise InsufficientBalance(player_id=player_id, balance=player.balance, amount=amount)
        pending = MoneyMove.objects.create(
            player=player,
            kind=kind,
            debit=debit,
            amount=amount,
            reason=reason.strip(),
            requested_by=staff,
            requested_at=now,
        )
        staff_action_record(
            staff=staff,
            action=StaffActionKind.MONEY_MOVE_ASK,
            target=player,
            detail=f"{_money_move_line(pending)}: {pending.reason}",
            now=now,
        )
        return pending


def _money_move_line(move: MoneyMove) -> str:
    """ "Money move #4: Deposit of $2,000.00 to ivy" """
    return (
        f"Money move #{move.pk}: {move.get_kind_display()} of {cents_format(move.amount)} "
        f"{'from' if move.debit else 'to'} {move.player.username}"
    )


def _money_move_pending(move_id: int) -> MoneyMove:
    """The move, locked, if it is still pending; MoneyMoveRefused if it was decided."""
    move = MoneyMove.objects.select_for_update().get(pk=move_id)
    if move.status != MoneyMoveStatus.PENDING:
        raise MoneyMoveRefused(f"Money move #{move.pk} was already {move.status}.")
    return move


def _money_move_decided(
    move: MoneyMove,
    *,
    status: str,
    staff: Player,
    now: datetime,
    note: str,
    entry: LedgerEntry | None = None,
) -> None:
    """The move is decided: who, when and why, and the ledger row its approval wrote."""
    move.status = status
    move.decided_by = staff
    move.decided_at = now
    move.decision_note = note
    if entry is not None:
        move.ledger_entry = entry
    move.save()


def money_move_approve(*, move_id: int, staff: Player, now: datetime, note: str = "") -> MoneyMove:
    """A second member of staff approves a waiting move: its ledger row is written now, once
    (the move's row is locked and must still be pending), naming the one who asked and the
    reference `money_move:<id>`. Nobody approves a move they asked for, nor one to or from
    their own account (MoneyMoveRefused, nothing moves); a debit the balance no longer
    covers is refused (InsufficientBalance) and stays pending."""
    with transaction.atomic():
        move = _money_move_pending(move_id)
        if staff.pk == move.requested_by_id:
            raise MoneyMoveRefused(
                f"Money move #{move.pk}: you asked for it, so another member of staff must "
                f"approve it."
            )
        if staff.pk == move.player_id:
            raise MoneyMoveRefused(
                f"Money move #{move.pk} is {'from' if move.debit else 'to'} your own account: "
                f"another member of staff must approve it."
            )
        _approver_check(staff, what=f"Money move #{move.pk}")
        entry = _wallet_move(
            player_id=move.player_id,
            amount=move.amount,
            debit=move.debit,
            kind=move.kind,
            staff=move.requested_by,
            reason=move.reason,
            reference=f"money_move:{move.pk}",
            staff_action=False,
            second_person=staff,
        )
        note = note.strip()[:200]
        staff_action_record(
            staff=staff,
            action=StaffActionKind.MONEY_MOVE_APPROVE,
            target=move.player,
            detail=f"{_money_move_line(move)}, asked by {move.requested_by.username}: "
            f"{move.reason}" + (f" ({note})" if note else ""),
            now=now,
        )
        _money_move_decided(
            move, status=MoneyMoveStatus.APPROVED, staff=staff, now=now, note=note, entry=entry
        )
    return move


def money_move_refuse(*, move_id: int, staff: Player, now: datetime, note: str = "") -> MoneyMove:
    """Staff refuse a waiting move (the one who asked may withdraw it so): nothing moves,
    the move records who and why."""
    with transaction.atomic():
        move = _money_move_pending(move_id)
        note = note.strip()[:200]
        _money_move_decided(move, status=MoneyMoveStatus.REFUSED, staff=staff, now=now, note=note)
        staff_action_record(
            staff=staff,
            action=StaffActionKind.MONEY_MOVE_REFUSE,
            target=move.player,
            detail=f"{_money_move_line(move)}, asked by {move.requested_by.username}"
            + (f": {note}" if note else ""),
            now=now,
        )
    return move


# --- Play money (settings.ROOM_MONEY = "play") ---------------------------------------------

PLAY_MONEY_GRANT_REASON = "sign-up grant"
PLAY_MONEY_TOP_UP_REASON = "daily top-up"


class TopUpRefused(WalletError):
    """A play-money top-up the room refuses (not a play-money room, enough money, or already
    topped up today); nothing written."""


def play_money_room() -> bool:
    return bool(settings.ROOM_MONEY == "play")


def wallet_top_up_refusal(*, player: Player, now: datetime) -> str | None:
    """Why `player` may not top up now, or None. The floor compares the wallet, the balance
    off the tables: chips in front of the player at a table do not count."""
    if not play_money_room():
        return "This room plays for real money: ask the cashier for a deposit."
    if player.balance >= settings.PLAY_MONEY_TOP_UP_FLOOR:
        return (
            f"You can top up when your balance off the tables is below "
            f"{cents_format(settings.PLAY_MONEY_TOP_UP_FLOOR)}; it is "
            f"{cents_format(player.balance)}."
        )
    if player.play_money_top_up_day == room_day(now):
        return "You have already topped up today (New York time); come back tomorrow."
    return None


def wallet_top_up(*, player_id: int, now: datetime) -> LedgerEntry:
    """Give a player PLAY_MONEY_TOP_UP_AMOUNT of play money, at most once a New York day and
    only while their wallet is below PLAY_MONEY_TOP_UP_FLOOR; TopUpRefused otherwise.

    The check and the write happen under the player's row lock, so two clicks at once give
    one top-up.
    """
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player_id)
        refusal = wallet_top_up_refusal(player=player, now=now)
        if refusal is not None:
            raise TopUpRefused(refusal)
        Player.objects.filter(pk=player_id).update(play_money_top_up_day=room_day(now))
        return wallet_credit(
            player_id=player_id,
            amount=settings.PLAY_MONEY_TOP_UP_AMOUNT,
            kind=LedgerKind.PLAY_MONEY_TOP_UP,
            reason=PLAY_MONEY_TOP_UP_REASON,
        )


# --- The cashier (settings.ROOM_MONEY = "real") ---------------------------------------------


class CashierRefused(WalletError):
    """A cashier request or decision the room refuses; nothing written."""


def _pending_withdrawals(player_id: int) -> int:
    pending = CashierRequest.objects.filter(
        player_id=player_id, kind=CashierKind.WITHDRAWAL, status=CashierStatus.PENDING
    ).aggregate(total=Sum("amount"))
    return int(pending["total"] or 0)


def cashier_request(*, player_id: int, kind: str, amount: int) -> CashierRequest:
    """A player asks for a deposit or a withdrawal; nothing moves until staff approve.

    A withdrawal may not exceed the wallet (the balance off the tables) less the withdrawals
    already waiting.
    """
    if not settings.ROOM_MONEY == "real":
        raise CashierRefused("This room plays for play money: there is no cashier.")
    if kind not in CashierKind.values:
        raise CashierRefused("Ask for a deposit or a withdrawal.")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise CashierRefused("The amount must be more than $0.00.")
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player_id)
        running = break_in_force(player_id)
        if running is not None:  # issue #26: no cashier while a break runs
            raise CashierRefused(
                f"You are on a {running.get_kind_display().lower()} until "
                f"{room_moment_text(running.ends_at)}: the cashier is closed to you."
            )
        if kind == CashierKind.WITHDRAWAL:
            if is_suspended(player_id):  # issue #25: the wallet is held for review
                raise CashierRefused(
                    "Your account is suspended and its wallet held for review: no withdrawal "
                    "until the review ends."
                )
            available = player.balance - _pending_withdrawals(player_id)
            if amount > available:
                raise CashierRefused(
                    f"You can withdraw at most {cents_format(max(available, 0))}: your balance "
                    f"off the tables, less the withdrawals waiting for the cashier."
                )
        return CashierRequest.objects.create(player=player, kind=kind, amount=amount)


def _cashier_pending(request_id: int) -> CashierRequest:
    """The request, locked, if it is still pending; CashierRefused if it was decided."""
    request = CashierRequest.objects.select_for_update().get(pk=request_id)
    if request.status != CashierStatus.PENDING:
        raise CashierRefused(f"Request #{request.pk} was already {request.status}.")
    return request


def _cashier_request_line(request: CashierRequest) -> str:
    """ "Deposit request #4 of $2,000.00" """
    return f"{request.get_kind_display()} request #{request.pk} of {cents_format(request.amount)}"


def _cashier_decided(
    request: CashierRequest,
    *,
    status: str,
    action: str,
    staff: Player,
    now: datetime,
    note: str,
    entry: LedgerEntry | None = None,
) -> None:
    """The request is decided: who, when and why (the player sees the note), the ledger row
    its approval wrote, and the line in the staff audit log."""
    note = note.strip()
    request.status = status
    request.decided_at = now
    request.decided_by = staff
    request.staff_note = note[:200]
    if entry is not None:
        request.ledger_entry = entry
    request.save()
    staff_action_record(
        staff=staff,
        action=action,
        target=request.player,
        detail=_cashier_request_line(request) + (f": {note}" if note else ""),
        now=now,
    )


def cashier_approve(
    *, request_id: int, staff: Player, now: datetime, note: str = ""
) -> CashierRequest:
    """Staff approve a request: one ledger row (a deposit or a withdrawal) naming them.

    The request row is locked and must still be pending, so it is approved once only; a
    withdrawal larger than the wallet now is refused (InsufficientBalance) and stays pending.

    Two people for money (issue #22): nobody approves their own request (a staff member's,
    CashierRefused); a staff member's request needs one approval by another member of
    staff, and a request above MONEY_SECOND_APPROVAL_CENTS two, by two members of staff:
    the first approval is recorded (`first_approved_by`, the request stays pending, nothing
    moves) and the money moves on the second.
    """
    with transaction.atomic():
        request = _cashier_pending(request_id)
        if staff.pk == request.player_id:
            raise CashierRefused(
                f"Request #{request.pk} is your own: another member of staff must approve it."
            )
        _approver_check(staff, what=f"Request #{request.pk}")
        reason = f"cashier request #{request.pk}" + (f": {note.strip()}" if note.strip() else "")
        deposit = request.kind == CashierKind.DEPOSIT
        if not deposit and is_suspended(request.player_id):
            raise CashierRefused(
                f"Request #{request.pk}: the player is suspended and the wallet held for review."
            )
        second_person: Player | None = None
        if money_second_approval_needed(player=request.player, amount=request.amount):
            if request.player.is_staff:
                second_person = request.player  # the staff member who asked: one more needed
            elif request.first_approved_by is None:
                return _cashier_first_approval(request=request, staff=staff, now=now, note=note)
            elif request.first_approved_by_id == staff.pk:
                raise CashierRefused(
                    f"Request #{request.pk}: you approved it already; a second member of staff "
                    f"must approve it too."
                )
            else:
                second_person = request.first_approved_by
        entry = _wallet_move(
            player_id=request.player_id,
            amount=request.amount,
            debit=not deposit,
            kind=LedgerKind.DEPOSIT if deposit else LedgerKind.WITHDRAWAL,
            staff=staff,
            reason=reason[:200],
            reference=f"cashier:{request.pk}",
            staff_action=False,
            second_person=second_person,
        )
        _cashier_decided(
            request,
            status=CashierStatus.APPROVED,
            action=StaffActionKind.CASHIER_APPROVE,
            staff=staff,
            now=now,
            note=note,
            entry=entry,
        )
    return request


def _cashier_first_approval(
    *, request: CashierRequest, staff: Player, now: datetime, note: str
) -> CashierRequest:
    """The first of two approvals of a request above MONEY_SECOND_APPROVAL_CENTS: recorded,
    and nothing moves until a second member of staff approves it too."""
    request.first_approved_by = staff
    request.first_approved_at = now
    request.save(update_fields=["first_approved_by", "first_approved_at"])
    staff_action_record(
        staff=staff,
        action=StaffActionKind.CASHIER_FIRST_APPROVE,
        target=request.player,
        detail=f"{_cashier_request_line(request)}: waits for a second member of staff"
        + (f" ({note.strip()})" if note.strip() else ""),
        now=now,
    )
    return request


def cashier_refuse(
    *, request_id: int, staff: Player, now: datetime, note: str = ""
) -> CashierRequest:
    """Staff refuse a request: no money moves, the request records who and why."""
    with transaction.atomic():
        request = _cashier_pending(request_id)
        _cashier_decided(
            request,
            status=CashierStatus.REFUSED,
            action=StaffActionKind.CASHIER_REFUSE,
            staff=staff,
            now=now,
            note=note,
        )
    return request


# --- Accounts -------------------------------------------------------------------------------


def player_sign_up(
    *,
    username: str,
    email: str,
    password: str,
    play_money_grant: bool = True,
    email_confirmed: bool = False,
) -> Player:
    """A new player: never staff, preferences at their defaults; in a play-money room
    (settings.ROOM_MONEY = "play") the sign-up grant in the same transaction, otherwise an
    empty wallet. `play_money_grant=False` for accounts the room makes with a bankroll of
    their own (the demo players and bots), which also pass `email_confirmed=True`. Any other
    sign-up's address waits unconfirmed (`email_confirmation_send`), whether or not another
    account holds it: sign-up never says (issue #22).

    NameRefused for a name the room will not show; NameTaken (nothing written) when the
    username looks like another player's username or display name (accounts.names).
    """
    name_check(username, what="A username")
    grant = settings.PLAY_MONEY_SIGN_UP_GRANT if play_money_grant and play_money_room() else 0
    with transaction.atomic():
        player = Player.objects.create_user(
            username=username,
            email=email,
            password=password,
            is_staff=False,
            is_superuser=False,
            email_confirmed=email_confirmed,
        )
        if grant > 0:
            wallet_credit(
                player_id=player.pk,
                amount=grant,
                kind=LedgerKind.PLAY_MONEY_GRANT,
                reason=PLAY_MONEY_GRANT_REASON,
            )
            player.balance = grant
    return player


def email_confirmation_send(*, player_id: int, address: str | None, site: str) -> None:
    """The mail a sign-up (or "Send the link again") sends about the player's unconfirmed
    address: its confirmation link, or, when a confirmed account already holds the address,
    the notice to that account's owner instead (accounts/email_confirmation.py). Each within
    `account_mail_allow`'s limits; a mail the server cannot send is logged, and the player can
    ask again. Nothing tells the asker which was sent."""
    player = Player.objects.filter(pk=player_id, email_confirmed=False).first()
    if player is None:
        return
    owner = email_confirmed_by_another(player.email, player_id=player.pk)
    if owner is not None:
        if not account_mail_allow(
            player_id=owner.pk, kind=AccountMailKind.SIGN_UP_NOTICE, address=address
        ):
            return
        subject, body = sign_up_notice_mail(site=site, username=player.username)
        to = owner.email
    else:
        if not account_mail_allow(
            player_id=player.pk, kind=AccountMailKind.EMAIL_CONFIRM, address=address
        ):
            return
        subject, body = email_confirm_mail(
            site=site, username=player.username, player_id=player.pk, email=player.email
        )
        to = player.email
    try:
        send_mail(subject, body, None, [to])
    except Exception:  # an SMTP failure must not undo the sign-up; the player can ask again
        logger.exception("sending an account mail failed")


class EmailConfirmRefused(ValueError):
    """A link that confirms nothing: forged, expired, for an address since changed, or for an
    address another account has confirmed meanwhile."""


def player_email_confirm(*, player_id: int, email: str) -> Player:
    """Confirm `email` as `player_id`'s address (the link's two values). Saying it twice
    changes nothing. EmailConfirmRefused when the account no longer has that address or
    another account confirmed it first."""
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is None or player.email.lower() != email.lower():
            raise EmailConfirmRefused("This link cannot confirm an address any more.")
        if player.email_confirmed:
            return player
        if email_confirmed_by_another(player.email, player_id=player.pk) is not None:
            raise EmailConfirmRefused("This link cannot confirm an address any more.")
        player.email_confirmed = True
        player.save(update_fields=["email_confirmed"])
    return player


def player_settings_update(
    *,
    player_id: int,
    display_name: str,
    auto_ante: bool,
    auto_muck: bool,
    four_colour_deck: bool,
    confirm_free_fold: bool,
) -> None:
    """Save a player's preferences and display name (never the balance).

    NameRefused for a display name the room will not show; NameTaken (nothing written) when
    it looks like another player's username or display name, even if that player took it
    a moment ago (the unique name keys decide).
    """
    display_name = display_name.strip()
    if display_name:
        name_check(display_name, what="A display name")
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player_id)
        turned_on = auto_ante and not player.auto_ante
        player.display_name = display_name
        player.auto_ante = auto_ante
        player.auto_muck = auto_muck
        player.four_colour_deck = four_colour_deck
        player.confirm_free_fold = confirm_free_fold
        player.save(
            update_fields=[
                "display_name",
                "auto_ante",
                "auto_muck",
                "four_colour_deck",
                "confirm_free_fold",
            ]
        )
        if turned_on:
            # R-ANTE-1: tables waiting for this player's "I'm in" stop waiting (tables listens).
            transaction.on_commit(
                lambda: auto_ante_turned_on.send(sender=Player, player_id=player_id)
            )


# --- Chat mutes -----------------------------------------------------------------------------


class ChatMuteRefused(ValueError):
    """A mute the room will not keep (oneself, or no such player); nothing is written."""


# Player ids are 64-bit (BigAutoField): a larger one names nobody.
MAX_PLAYER_ID = 2**63 - 1


def chat_mute_set(*, player_id: int, muted_id: int, on: bool) -> None:
    """Hide (on) or show again (off) `muted_id`'s chat to `player_id`, everywhere they play.
    Saying it twice changes nothing."""
    if muted_id == player_id:
        raise ChatMuteRefused("You cannot mute yourself.")
    if not 0 < muted_id <= MAX_PLAYER_ID:
        # No player has it; SQLite cannot even bind it (OverflowError, issue #22: a 500).
        raise ChatMuteRefused("No such player.")
    if not on:
        ChatMute.objects.filter(player_id=player_id, muted_id=muted_id).delete()
        return
    if not Player.objects.filter(pk=muted_id).exists():
        raise ChatMuteRefused("No such player.")
    ChatMute.objects.get_or_create(player_id=player_id, muted_id=muted_id)


# --- Mails about an account (issue #22) ----------------------------------------------------

ACCOUNT_MAIL_WINDOW = timedelta(hours=1)


def account_mail_allow(
    *, player_id: int, kind: AccountMailKind, address: str | None, now: datetime | None = None
) -> bool:
    """Whether to send `player_id` a mail of this kind asked from `address`, and if so its
    record. Of each kind at most `ACCOUNT_MAILS_PER_ACCOUNT` in any hour to one account
    (however many addresses ask: nobody's inbox is flooded) and `ACCOUNT_MAILS_PER_ADDRESS`
    asked from one address (whichever accounts: nobody mails the whole room). The player's
    row is locked, so two requests at once cannot both pass the account's count."""
    now = timezone.now() if now is None else now
    recent = AccountMail.objects.filter(kind=kind, sent_at__gt=now - ACCOUNT_MAIL_WINDOW)
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is None:
            return False
        if recent.filter(player=player).count() >= settings.ACCOUNT_MAILS_PER_ACCOUNT:
            return False
        if address is not None and (
            recent.filter(address=address).count() >= settings.ACCOUNT_MAILS_PER_ADDRESS
        ):
            return False
        AccountMail.objects.create(player=player, kind=kind, address=address, sent_at=now)
    return True


# --- All-in protection (R-TIME-2) -----------------------------------------------------------


def all_in_protection_take(*, player_id: int, now: datetime) -> bool:
    """Use one of today's all-in protections; False when none is left.

    Correct without the midnight reset: a count recorded on an earlier New York day is 0.
    """
    today = room_day(now)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player_id)
        used = player.all_ins_used if player.all_ins_day == today else 0
        if used >= player.all_in_allowance:
            return False
        Player.objects.filter(pk=player_id).update(all_ins_used=used + 1, all_ins_day=today)
        return True


def all_in_protection_remaining(*, player: Player, now: datetime) -> int:
    used = player.all_ins_used if player.all_ins_day == room_day(now) else 0
    return max(player.all_in_allowance - used, 0)


def all_in_protection_reset_day(*, now: datetime) -> int:
    """The New York midnight reset: counts from earlier days go to 0. Returns players reset.

    A protection already used on the new day (before the reset ran) is kept.
    """
    today = room_day(now)
    return (
        Player.objects.filter(~Q(all_ins_day=today) | Q(all_ins_day__isnull=True))
        .filter(all_ins_used__gt=0)
        .update(all_ins_used=0, all_ins_day=today)
    )


def all_in_protection_reset(
    *, player_ids: list[int], now: datetime, staff: Player | None = None
) -> int:
    """Staff give players back their full allowance for today; each player reset is one
    StaffAction naming `staff` (and the protections they had used today)."""
    today = room_day(now)
    with transaction.atomic():
        players = list(Player.objects.select_for_update().filter(pk__in=player_ids).order_by("pk"))
        for player in players:
            used = player.all_ins_used if player.all_ins_day == today else 0
            if staff is not None:
                staff_action_record(
                    staff=staff,
                    action=StaffActionKind.ALL_IN_RESET,
                    target=player,
                    detail=f"{used} of {player.all_in_allowance} used today given back",
                    now=now,
                )
        return Player.objects.filter(pk__in=[player.pk for player in players]).update(
            all_ins_used=0, all_ins_day=today
        )


# --- The staff audit log (issue #16) --------------------------------------------------------


def staff_action_record(
    *,
    staff: Player,
    action: str,
    target: Player | str,
    detail: str = "",
    now: datetime | None = None,
) -> StaffAction:
    """Append one row to the staff audit log: `staff` did `action` to `target` (a Player, or
    a reference such as "table:3" or "tournament:7"), with a line of `detail`.

    Call it inside the transaction of the change it records, so the action and its record
    are written together or not at all. Rows are never changed or deleted (StaffAction).
    """
    player = target if isinstance(target, Player) else None
    reference = f"player:{target.pk}" if isinstance(target, Player) else target
    return StaffAction.objects.create(
        staff=staff,
        action=str(action),
        target=reference[:64],
        target_player=player,
        detail=detail[:300],
        at=timezone.now() if now is None else now,
    )


class AccountCloseRefused(ValueError):
    """The account is closed already (a second click, another tab)."""


def player_account_close(*, player_id: int, now: datetime | None = None) -> Player:
    """Close the player's account (issue #26 item 4; the page asks for the password first).

    Kept, as the room must: every ledger row (the balance stays their money, owed to them: in
    a real-money room it is paid out, `closed_account_payout_request`) and
    every hand record, breaks and self-exclusions too (closing cannot lift one). Removed: the
    personal fields (username anonymised to `closed-<id>`, display name, names and email
    blanked), the password, second factors, API tokens, chat mutes, mails sent and every
    session. After commit the tables cash them out (the hand they are in ends first, never
    folded: `players_on_break` counts a closed account) and the tournaments not started give
    their buy-ins back, as for a break (`play_break_taken`)."""
    now = timezone.now() if now is None else now
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player_id)
        if player.closed_at is not None:
            raise AccountCloseRefused("This account is closed already.")
        player.closed_at = now
        player.is_active = False
        player.username = f"closed-{player.pk}"
        player.display_name = ""
        player.first_name = ""
        player.last_name = ""
        player.email = ""
        player.email_confirmed = False
        player.set_unusable_password()
        player.save()
        TOTPDevice.objects.filter(user=player).delete()
        StaticDevice.objects.filter(user=player).delete()
        Token.objects.filter(user=player).delete()
        ChatMute.objects.filter(Q(player=player) | Q(muted=player)).delete()
        AccountMail.objects.filter(player=player).delete()
        transaction.on_commit(lambda: play_break_taken.send(sender=Player, player_id=player_id))
        transaction.on_commit(lambda: closed_account_payout_request(player_id=player_id))
    player_sessions_end(player_id=player_id)
    return player


def closed_account_payout_request(*, player_id: int) -> CashierRequest | None:
    """A closed account's money is paid out (issue #26, real-money rooms): what its wallet
    holds beyond the withdrawals already waiting becomes a withdrawal request, which the
    cashier decides as any other (two members of staff above the threshold, issue #22).
    Called when the account closes (after the tables and tournaments gave back what they
    could) and whenever a table later cashes out one of its seats (the hand it was in ended).
    Play money is not paid out; a suspended account's wallet stays held for review (its
    payout waits for the review: staff file it then). None when nothing is filed."""
    if settings.ROOM_MONEY != "real":
        return None
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player_id)
        if player.closed_at is None or is_suspended(player_id):
            return None
        owed = player.balance - _pending_withdrawals(player_id)
        if owed <= 0:
            return None
        return CashierRequest.objects.create(
            player=player, kind=CashierKind.WITHDRAWAL, amount=owed
        )


# --- A player's logins (issue #26 item 4; the handlers in accounts.sessions) ---------------

USER_AGENT_MAX = 300


def player_session_record(
    *, player: Player, session_key: str, user_agent: str, address: str | None, now: datetime
) -> PlayerSession:
    """A login: its session is recorded (a key seen before is taken over by this login)."""
    session, _ = PlayerSession.objects.update_or_create(
        session_key=session_key,
        defaults={
            "player": player,
            "user_agent": user_agent[:USER_AGENT_MAX],
            "address": address,
            "started_at": now,
            "last_seen": now,
        },
    )
    return session


def player_session_seen(*, session_key: str, now: datetime) -> int:
    """A request of the session: its "last seen" moves. How many rows it moved (0: a session
    not recorded, such as one logged in before sessions were recorded)."""
    return PlayerSession.objects.filter(session_key=session_key).update(last_seen=now)


def player_session_forget(*, session_key: str) -> None:
    """A logout: the session is gone from the store already, so from the list too."""
    PlayerSession.objects.filter(session_key=session_key).delete()


def player_sessions_end(*, player_id: int, keep_session_key: str | None = None) -> int:
    """End every session of the player but `keep_session_key` (none kept when it is None):
    each is deleted from the session store, so its browser is logged out at its next request.
    Returns how many were ended."""
    with transaction.atomic():
        ended = PlayerSession.objects.select_for_update().filter(player_id=player_id)
        if keep_session_key is not None:
            ended = ended.exclude(session_key=keep_session_key)
        keys = list(ended.values_list("session_key", flat=True))
        ended.delete()
    for key in keys:
        session_store(key).delete(key)
    return len(keys)
