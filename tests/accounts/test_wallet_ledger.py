"""The wallet: cents in, cents out, every movement one permanent ledger row."""

from __future__ import annotations

import pytest

from accounts.models import LedgerEntry, LedgerKind, LedgerRowIsPermanent
from accounts.money import MoneyParseError, cents_format, dollars_parse
from accounts.services import InsufficientBalance, WalletError, wallet_credit, wallet_debit
from tests.factories import PlayerFactory, StaffFactory, funded

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("cents", "shown"),
    [(5000, "$50.00"), (0, "$0.00"), (5, "$0.05"), (123456, "$1,234.56"), (-250, "-$2.50")],
)
def test_cents_are_shown_as_dollars(cents: int, shown: str) -> None:
    assert cents_format(cents) == shown


@pytest.mark.parametrize(
    ("typed", "cents"),
    [("50.00", 5000), ("50", 5000), ("50.5", 5050), ("$1,234.56", 123456), (" 0.01 ", 1)],
)
def test_dollars_typed_are_parsed_to_cents(typed: str, cents: int) -> None:
    assert dollars_parse(typed) == cents


@pytest.mark.parametrize(
    "typed", ["", "-5.00", "5.001", "1e3", "NaN", "Infinity", "5,00", "fifty", "50.", ".5"]
)
def test_malformed_amounts_are_refused(typed: str) -> None:
    with pytest.raises(MoneyParseError):
        dollars_parse(typed)


def test_a_deposit_and_a_withdrawal_write_the_ledger_and_the_balance() -> None:
    player = PlayerFactory()

    deposit = wallet_credit(player_id=player.pk, amount=5000, kind=LedgerKind.DEPOSIT)
    withdrawal = wallet_debit(player_id=player.pk, amount=1250, kind=LedgerKind.WITHDRAWAL)

    player.refresh_from_db()
    assert player.balance == 3750
    assert (deposit.amount, deposit.balance_after) == (5000, 5000)
    assert (withdrawal.amount, withdrawal.balance_after) == (-1250, 3750)


def test_a_debit_larger_than_the_balance_is_refused_and_nothing_changes() -> None:
    player = PlayerFactory()
    funded(player, 3000)

    with pytest.raises(InsufficientBalance) as refused:
        wallet_debit(player_id=player.pk, amount=3001, kind=LedgerKind.BUY_IN)

    assert str(refused.value) == "Insufficient balance: $30.01 asked for, only $30.00 available."
    player.refresh_from_db()
    assert player.balance == 3000
    assert LedgerEntry.objects.filter(player=player).count() == 1


@pytest.mark.parametrize("amount", [0, -100])
def test_amounts_must_be_positive(amount: int) -> None:
    player = PlayerFactory()

    with pytest.raises(WalletError, match="positive"):
        wallet_credit(player_id=player.pk, amount=amount, kind=LedgerKind.DEPOSIT)
    assert not LedgerEntry.objects.exists()


def test_a_kind_must_move_money_its_own_way() -> None:
    player = PlayerFactory()
    funded(player, 1000)

    with pytest.raises(WalletError):
        wallet_credit(player_id=player.pk, amount=100, kind=LedgerKind.WITHDRAWAL)
    with pytest.raises(WalletError):
        wallet_debit(player_id=player.pk, amount=100, kind=LedgerKind.PRIZE)


def test_staff_entries_need_a_reason() -> None:
    player = PlayerFactory()
    staff = StaffFactory()

    with pytest.raises(WalletError, match="reason"):
        wallet_credit(player_id=player.pk, amount=100, kind=LedgerKind.DEPOSIT, staff=staff)
    with pytest.raises(WalletError, match="reason"):
        wallet_credit(player_id=player.pk, amount=100, kind=LedgerKind.ADJUSTMENT)


def test_a_ledger_row_cannot_be_saved_again() -> None:
    entry = funded(PlayerFactory(), 5000)
    entry.amount = 500000

    with pytest.raises(LedgerRowIsPermanent):
        entry.save()
    assert LedgerEntry.objects.get(pk=entry.pk).amount == 5000


def test_a_ledger_row_cannot_be_deleted() -> None:
    entry = funded(PlayerFactory(), 5000)

    with pytest.raises(LedgerRowIsPermanent):
        entry.delete()
    with pytest.raises(LedgerRowIsPermanent):
        LedgerEntry.objects.filter(pk=entry.pk).delete()
    with pytest.raises(LedgerRowIsPermanent):
        LedgerEntry.objects.all().delete()
    assert LedgerEntry.objects.filter(pk=entry.pk).exists()


def test_ledger_rows_cannot_be_updated_in_bulk() -> None:
    entry = funded(PlayerFactory(), 5000)

    with pytest.raises(LedgerRowIsPermanent):
        LedgerEntry.objects.filter(pk=entry.pk).update(amount=1)
    entry.amount = 1
    with pytest.raises(LedgerRowIsPermanent):
        LedgerEntry.objects.bulk_update([entry], ["amount"])
    assert LedgerEntry.objects.get(pk=entry.pk).amount == 5000


def test_a_stale_player_saved_elsewhere_does_not_write_back_its_balance() -> None:
    player = PlayerFactory()
    stale = type(player).objects.get(pk=player.pk)
    funded(player, 5000)

    stale.display_name = "Stale"
    stale.save()

    player.refresh_from_db()
    assert (player.display_name, player.balance) == ("Stale", 5000)
