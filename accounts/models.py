"""Players and their wallet: an append-only ledger in integer cents."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.db import IntegrityError, models, transaction
from django.db.models.functions import Lower

from accounts.devices import device_label
from accounts.names import name_keys


class Player(AbstractUser):
    """A registered player (or a staff member: `is_staff` is never set by sign-up)."""

    # One confirmed account per address (the constraint below, any case). A sign-up's address
    # waits unconfirmed until its owner opens the link mailed to it (issue #22: sign-up tells
    # nobody whether an address is registered, so it cannot refuse one that is).
    email = models.EmailField("email address")
    email_confirmed = models.BooleanField(
        "email address confirmed",
        default=True,
        help_text="Off from sign-up until the player opens the link mailed to the address. "
        "Password resets and hand histories are mailed to a confirmed address only.",
    )
    display_name = models.CharField(max_length=24, blank=True)
    auto_ante = models.BooleanField(
        "\u201cI'm in\u201d: post the ante automatically",
        default=True,
        help_text="When off, you are asked before each hand whether you are in; a hand you "
        "do not confirm in time is dealt without you.",
    )
    auto_muck = models.BooleanField(
        "Muck losing hands automatically",
        default=True,
        help_text="At a showdown, a hand that cannot win a share of the pot is put away "
        "face down instead of shown.",
    )
    confirm_free_fold = models.BooleanField(
        "Ask before folding when I could check",
        default=True,
        help_text="Folding when nobody has bet gives up a hand you could keep for free.",
    )
    four_colour_deck = models.BooleanField("Four-colour deck", default=False)
    # The balance is the sum of the ledger; this column is that sum, kept beside it and changed
    # only in accounts.services under a row lock, together with the ledger row that explains it.
    balance = models.BigIntegerField(default=0, editable=False)
    # All-in protection (R-TIME-2): allowance per New York day, how many used on which day.
    all_in_allowance = models.PositiveSmallIntegerField(default=2)
    all_ins_used = models.PositiveSmallIntegerField(default=0)
    all_ins_day = models.DateField(null=True, blank=True)
    # Play money: the New York day of the player's last top-up (at most one a day).
    play_money_top_up_day = models.DateField(null=True, blank=True, editable=False)
    # When the player closed the account (issue #26, accounts.services.player_account_close):
    # its ledger and hands are kept, its personal fields blanked, its logins disabled.
    closed_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects: ClassVar[UserManager[Player]] = UserManager()  # type: ignore[assignment]
    # The names as loaded or last saved (from_db, save): unchanged names keep their keys.
    _names_loaded: tuple[str | None, str | None]

    class Meta:
        verbose_name = "player"
        ordering = ["username"]
        permissions = [
            ("move_money", "Can credit and debit a player's wallet"),
            # The accountants' (accounting/access.py): dashboard, rake report, statement, API.
            ("read_accounts", "Can read the room's accounts: dashboard, rake and statements"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(balance__gte=0), name="player_balance_never_negative"
            ),
            models.UniqueConstraint(
                Lower("email"),
                condition=models.Q(email_confirmed=True),
                name="player_confirmed_email_unique",
                violation_error_message="An account with that email address already exists.",
            ),
        ]

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save everything but the balance, which only accounts.services writes.

        A Player loaded before a concurrent debit (a settings form, the admin change form)
        still holds the old balance; a plain save() must not write it back.
        """
        if not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                field.name
                for field in self._meta.concrete_fields
                if not field.primary_key and field.name != "balance"
            ]
        update_fields = kwargs.get("update_fields")
        names_saved = update_fields is None or {"username", "display_name"} & set(update_fields)
        if not (names_saved and self._names_changed()):
            super().save(*args, **kwargs)
            return
        # The names change: the row and its name keys are written together, or neither.
        with transaction.atomic():
            super().save(*args, **kwargs)
            self.name_keys_store()
        self._names_loaded = (self.username, self.display_name)

    @classmethod
    def from_db(
        cls, db: str | None, field_names: Collection[str], values: Collection[Any], **kwargs: Any
    ) -> Player:
        player = super().from_db(db, field_names, values, **kwargs)
        player._names_loaded = (
            player.__dict__.get("username"),
            player.__dict__.get("display_name"),
        )
        return player

    def _names_changed(self) -> bool:
        """New, or the names differ from those loaded: a password or preference change of a
        player whose names predate the keys never trips over them."""
        loaded = getattr(self, "_names_loaded", None)
        return self._state.adding or loaded != (self.username, self.display_name)

    def name_keys_store(self) -> None:
        """Hold this player's username and display name under their keys (accounts.names).

        The keys are unique across all players, so two players can never hold names that
        look alike, even when both ask at once; NameTaken if another player holds one.
        """
        keys = name_keys(self.username) | (
            name_keys(self.display_name) if self.display_name else frozenset()
        )
        NameKey.objects.filter(player=self).exclude(key__in=keys).delete()
        held = set(NameKey.objects.filter(player=self).values_list("key", flat=True))
        try:
            with transaction.atomic():
                NameKey.objects.bulk_create(
                    [NameKey(player=self, key=key) for key in sorted(keys - held)]
                )
        except IntegrityError as error:
            raise NameTaken("That name is too like another player's name.") from error

    @property
    def table_name(self) -> str:
        return self.display_name or self.username


class NameTaken(IntegrityError):
    """A name (username or display name) that looks like one another player holds."""


class NameKey(models.Model):
    """One key under which a player's name is held (issue #11: no lookalike names).

    Both the username and the display name of every player are held here; a key belongs to
    one player only (the unique index), so a display name can never look like another
    player's username or display name. Written only by Player.save().
    """

    key = models.CharField(max_length=200, unique=True)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="name_keys"
    )

    def __str__(self) -> str:
        return self.key


class ChatMute(models.Model):
    """A player hides another player's chat (issue #14): kept on the account, so the mute
    follows the player to every table, browser and device. Written only by
    accounts.services.chat_mute_set."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes"
    )
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "muted"], name="chat_mute_once"),
            models.CheckConstraint(
                condition=~models.Q(player=models.F("muted")), name="chat_mute_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} mutes {self.muted_id}"


class LedgerKind(models.TextChoices):
    DEPOSIT = "deposit", "Deposit"
    WITHDRAWAL = "withdrawal", "Withdrawal"
    BUY_IN = "buy_in", "Buy-in"
    CASH_OUT = "cash_out", "Cash-out"
    # Tournaments (reference "tournament:<id>"): the buy-in and add-on go to the prize pool,
    # the fee is the house's (R-TOUR-9). A fee given back (unregistering, cancellation) is a
    # TOURNAMENT_FEE credit, so the sum of the fee lines is the fees the house kept; buy-ins
    # and add-ons given back are TOURNAMENT_REFUND credits.
    TOURNAMENT_BUY_IN = "tournament_buy_in", "Tournament buy-in"
    TOURNAMENT_ADD_ON = "tournament_add_on", "Tournament add-on"
    TOURNAMENT_REFUND = "tournament_refund", "Tournament refund"
    TOURNAMENT_FEE = "tournament_fee", "Tournament fee"
    PRIZE = "prize", "Prize"
    ADJUSTMENT = "adjustment", "Adjustment"
    # Play money the room gives (settings.ROOM_MONEY = "play"): money in, like a deposit.
    PLAY_MONEY_GRANT = "play_grant", "Play-money grant"
    PLAY_MONEY_TOP_UP = "play_top_up", "Play-money top-up"


# Which way each kind moves the balance; an adjustment may go either way.
CREDIT_KINDS = frozenset(
    {
        LedgerKind.DEPOSIT,
        LedgerKind.CASH_OUT,
        LedgerKind.PRIZE,
        LedgerKind.ADJUSTMENT,
        LedgerKind.PLAY_MONEY_GRANT,
        LedgerKind.PLAY_MONEY_TOP_UP,
        LedgerKind.TOURNAMENT_REFUND,
        LedgerKind.TOURNAMENT_FEE,  # a fee given back
    }
)
# Money that enters or leaves the room (audit_chips' "money in"), as against money that only
# moves between a wallet and the tables or tournaments.
MONEY_IN_KINDS = frozenset(
    {
        LedgerKind.DEPOSIT,
        LedgerKind.WITHDRAWAL,
        LedgerKind.ADJUSTMENT,
        LedgerKind.PLAY_MONEY_GRANT,
        LedgerKind.PLAY_MONEY_TOP_UP,
    }
)
DEBIT_KINDS = frozenset(
    {
        LedgerKind.WITHDRAWAL,
        LedgerKind.BUY_IN,
        LedgerKind.TOURNAMENT_BUY_IN,
        LedgerKind.TOURNAMENT_ADD_ON,
        LedgerKind.TOURNAMENT_FEE,
        LedgerKind.ADJUSTMENT,
    }
)
# Kinds that move money between wallets and tournaments (audit_chips checks them against the
# tournaments' own rows).
TOURNAMENT_KINDS = frozenset(
    {
        LedgerKind.TOURNAMENT_BUY_IN,
        LedgerKind.TOURNAMENT_ADD_ON,
        LedgerKind.TOURNAMENT_REFUND,
        LedgerKind.TOURNAMENT_FEE,
        LedgerKind.PRIZE,
    }
)


class LedgerRowIsPermanent(Exception):
    """Ledger rows are written once and never changed or deleted."""


class LedgerQuerySet(models.QuerySet["LedgerEntry"]):
    def update(self, **kwargs: Any) -> int:
        raise LedgerRowIsPermanent("ledger rows cannot be updated")

    def bulk_update(self, objs: Any, fields: Any, batch_size: int | None = None) -> int:
        raise LedgerRowIsPermanent("ledger rows cannot be updated")

    def update_or_create(self, *args: Any, **kwargs: Any) -> Any:
        raise LedgerRowIsPermanent("ledger rows cannot be updated")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise LedgerRowIsPermanent("ledger rows cannot be deleted")


class LedgerEntry(models.Model):
    """One movement of a player's money. Amount is signed cents: positive credits the balance."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ledger_entries"
    )
    kind = models.CharField(max_length=24, choices=LedgerKind.choices)
    amount = models.BigIntegerField()
    balance_after = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="ledger_entries_made",
    )
    reason = models.CharField(max_length=200, blank=True)
    # What the movement belongs to, e.g. "table:3" or "tournament:7".
    reference = models.CharField(max_length=64, blank=True, db_index=True)

    objects = LedgerQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "ledger entries"
        indexes = [models.Index(fields=["player", "-id"], name="ledger_player_latest")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(balance_after__gte=0), name="ledger_balance_never_negative"
            ),
            models.CheckConstraint(condition=~models.Q(amount=0), name="ledger_amount_never_zero"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.amount:+d}c for {self.player}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise LedgerRowIsPermanent("ledger rows cannot be changed once written")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise LedgerRowIsPermanent("ledger rows cannot be deleted")


class CashierKind(models.TextChoices):
    DEPOSIT = "deposit", "Deposit"
    WITHDRAWAL = "withdrawal", "Withdrawal"


class CashierStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    APPROVED = "approved", "Approved"
    REFUSED = "refused", "Refused"


class CashierRequest(models.Model):
    """A player's request to the cashier (settings.ROOM_MONEY = "real"): money moves only when
    staff approve it, as one ledger row naming them (accounts.services.cashier_approve)."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="cashier_requests"
    )
    kind = models.CharField(max_length=16, choices=CashierKind.choices)
    amount = models.BigIntegerField(help_text="Cents.")
    status = models.CharField(
        max_length=16, choices=CashierStatus.choices, default=CashierStatus.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="cashier_decisions",
    )
    staff_note = models.CharField(max_length=200, blank=True)
    ledger_entry = models.OneToOneField(
        LedgerEntry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # Issue #22: a request above settings.MONEY_SECOND_APPROVAL_CENTS needs two members of
    # staff; the first one's approval is kept here, and the money moves on the second's.
    first_approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="cashier_first_approvals",
    )
    first_approved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount__gt=0), name="cashier_amount_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} request #{self.pk} of {self.amount}c by {self.player}"


class MoneyMoveStatus(models.TextChoices):
    PENDING = "pending", "Waiting for a second approval"
    APPROVED = "approved", "Approved"
    REFUSED = "refused", "Refused"


class MoneyMove(models.Model):
    """A staff credit or debit that waits for a second member of staff (issue #22): one of
    more than settings.MONEY_SECOND_APPROVAL_CENTS, or any to or from a staff account.

    Nothing moves while it is pending. Another member of staff with the money permission,
    neither the one who asked nor the player, approves it (the ledger row is written then,
    once: accounts.services.money_move_approve) or refuses it (nothing moves).
    """

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="money_moves"
    )
    kind = models.CharField(max_length=24, choices=LedgerKind.choices)
    debit = models.BooleanField(help_text="Takes from the balance (else adds to it).")
    amount = models.BigIntegerField(help_text="Cents.")
    reason = models.CharField(max_length=200)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="money_moves_asked"
    )
    requested_at = models.DateTimeField(db_index=True)
    status = models.CharField(
        max_length=16, choices=MoneyMoveStatus.choices, default=MoneyMoveStatus.PENDING
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="money_moves_decided",
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_note = models.CharField(max_length=200, blank=True)
    ledger_entry = models.OneToOneField(
        LedgerEntry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount__gt=0), name="money_move_amount_positive"
            ),
            # Two people, always: an approved move names an approver who is neither the one
            # who asked nor the player whose money moved.
            models.CheckConstraint(
                condition=~models.Q(status="approved")
                | (
                    models.Q(decided_by__isnull=False)
                    & ~models.Q(decided_by=models.F("requested_by"))
                    & ~models.Q(decided_by=models.F("player"))
                ),
                name="money_move_approved_by_a_second_person",
            ),
        ]

    def __str__(self) -> str:
        way = "debit" if self.debit else "credit"
        return f"Money move #{self.pk}: {way} of {self.amount}c for {self.player}"


# --- The staff audit log (issue #16) --------------------------------------------------------


class StaffActionIsPermanent(Exception):
    """Staff actions are written once and never changed or deleted (like the ledger)."""


class StaffActionKind(models.TextChoices):
    """The staff actions the room records; another app may record actions of its own (the
    column is free text), these are the ones accounts and tables write."""

    WALLET_CREDIT = "wallet_credit", "Wallet credit"
    WALLET_DEBIT = "wallet_debit", "Wallet debit"
    ALL_IN_RESET = "all_in_reset", "All-in protection reset"
    CASHIER_APPROVE = "cashier_approve", "Cashier request approved"
    CASHIER_REFUSE = "cashier_refuse", "Cashier request refused"
    # Two people for money (issue #22).
    CASHIER_FIRST_APPROVE = "cashier_first_approve", "Cashier request approved (first of two)"
    MONEY_MOVE_ASK = "money_move_ask", "Money move asked (waits for a second approval)"
    MONEY_MOVE_APPROVE = "money_move_approve", "Money move approved"
    MONEY_MOVE_REFUSE = "money_move_refuse", "Money move refused"
    TABLE_OPEN = "table_open", "Table opened"
    TABLE_CLOSE = "table_close", "Table closed"


class StaffActionQuerySet(models.QuerySet["StaffAction"]):
    def update(self, **kwargs: Any) -> int:
        raise StaffActionIsPermanent("staff actions cannot be updated")

    def bulk_update(self, objs: Any, fields: Any, batch_size: int | None = None) -> int:
        raise StaffActionIsPermanent("staff actions cannot be updated")

    def update_or_create(self, *args: Any, **kwargs: Any) -> Any:
        raise StaffActionIsPermanent("staff actions cannot be updated")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise StaffActionIsPermanent("staff actions cannot be deleted")


class StaffAction(models.Model):
    """One thing a member of staff did to the room: who, what, to whom or to what, when.

    Append-only, written by the service that performs the action
    (accounts.services.staff_action_record). `target` names what was acted on as a reference
    ("player:5", "table:3", "tournament:7"); `target_player` is set when it is a player, so a
    player's page lists every staff action on their account.
    """

    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="staff_actions_made"
    )
    action = models.CharField(max_length=40, db_index=True)
    target = models.CharField(max_length=64, blank=True, db_index=True)
    target_player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="staff_actions_received",
    )
    detail = models.CharField(max_length=300, blank=True)
    at = models.DateTimeField(db_index=True)

    objects = StaffActionQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["target_player", "-id"], name="staff_action_player")]

    def __str__(self) -> str:
        return f"{self.action_label} by {self.staff} on {self.target or '-'}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise StaffActionIsPermanent("staff actions cannot be changed once written")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise StaffActionIsPermanent("staff actions cannot be deleted")

    @property
    def action_label(self) -> str:
        """The action as staff read it ("Wallet credit"); an unknown action as written."""
        if self.action in StaffActionKind.values:
            return str(StaffActionKind(self.action).label)
        return self.action


class PlayLimitKind(models.TextChoices):
    """The limits a player sets on themselves (issue #26). Money limits count the ledger on
    the room's New York day, its week (from Monday) and its month."""

    BUY_IN_DAY = "buy_in_day", "Buy-ins a day"
    BUY_IN_WEEK = "buy_in_week", "Buy-ins a week"
    BUY_IN_MONTH = "buy_in_month", "Buy-ins a month"
    LOSS_DAY = "loss_day", "Losses a day"
    LOSS_WEEK = "loss_week", "Losses a week"
    LOSS_MONTH = "loss_month", "Losses a month"
    SESSION_MINUTES = "session_minutes", "Session length (minutes)"
    # Not a limit on stakes: how often the table shows this session's time, net result and
    # rake (tables/services/reality_checks.py); 60 minutes when the player set none.
    REALITY_CHECK = "reality_check", "Reality check every (minutes)"


class PlayLimit(models.Model):
    """One limit of one player: `amount` (cents, or minutes for the session) in force, None
    for none; a raise or a removal waits 24 hours (`raise_at`) before it replaces it."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="play_limits")
    kind = models.CharField(max_length=20, choices=PlayLimitKind.choices)
    amount = models.PositiveBigIntegerField(null=True, blank=True)
    raise_pending = models.BooleanField(default=False)
    raise_to = models.PositiveBigIntegerField(null=True, blank=True)
    raise_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "kind"], name="one_play_limit_per_kind")
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.kind}: {self.amount}"


class PlayBreakKind(models.TextChoices):
    BREAK = "break", "Break"
    SELF_EXCLUSION = "self_exclusion", "Self-exclusion"


class PlayBreak(models.Model):
    """A break (24 hours, 7 or 30 days) or a self-exclusion (6 months, 1 or 5 years) a player
    took (issue #26): from `starts_at` to `ends_at` they take no seat, no registration and no
    cashier request. Never shortened: no code lifts one early, the player's or staff's."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="play_breaks")
    kind = models.CharField(max_length=20, choices=PlayBreakKind.choices)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["player", "ends_at"], name="play_break_player_ends")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.player} until {self.ends_at:%Y-%m-%d %H:%M}"


class AccountMailKind(models.TextChoices):
    PASSWORD_RESET = "password_reset", "Password reset"
    EMAIL_CONFIRM = "email_confirm", "Address confirmation"
    SIGN_UP_NOTICE = "sign_up_notice", "Sign-up with an address already registered"


class AccountMail(models.Model):
    """A mail about an account the room sent at someone's asking (issue #22): a password reset,
    a new account's address confirmation, or the notice to an address's owner that someone
    signed up with it. Of each kind at most `ACCOUNT_MAILS_PER_ACCOUNT` an hour go to one
    account and `ACCOUNT_MAILS_PER_ADDRESS` an hour are sent at one client address's asking
    (accounts.services.account_mail_allow); a request beyond either sends nothing and is
    answered the same."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="account_mails")
    kind = models.CharField(max_length=20, choices=AccountMailKind.choices)
    address = models.GenericIPAddressField(null=True, blank=True)
    sent_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["player", "kind", "sent_at"], name="account_mail_player_sent"),
            models.Index(fields=["address", "kind", "sent_at"], name="account_mail_address_sent"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} to {self.player} at {self.sent_at:%Y-%m-%d %H:%M}"


class PlayerSession(models.Model):
    """One login of a player (issue #26): Django's session store is not indexed by player, so
    each login is recorded here (accounts.sessions, on `user_logged_in`) for the settings
    page's list of sessions and its "Log out everywhere else"."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="login_sessions")
    session_key = models.CharField(max_length=40, unique=True)
    user_agent = models.CharField(max_length=300, blank=True)
    address = models.GenericIPAddressField(null=True, blank=True)
    started_at = models.DateTimeField()
    last_seen = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["player", "last_seen"], name="player_session_seen")]

    def __str__(self) -> str:
        return f"Session of {self.player} seen {self.last_seen:%Y-%m-%d %H:%M}"

    @property
    def device(self) -> str:
        """The browser and system as the player reads them ("Firefox 130 on Linux")."""
        return device_label(self.user_agent)
