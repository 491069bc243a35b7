"""`manage.py audit_chips`: conservation of the room's money (DESIGN.md "Money")."""

from __future__ import annotations

import pytest
from django.core.management import call_command, execute_from_command_line
from django.db import connection

from accounts.models import LedgerEntry, LedgerKind
from accounts.services import wallet_credit, wallet_debit
from tests.factories import PlayerFactory, StaffFactory, funded

pytestmark = pytest.mark.django_db


def audit(capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run the command as `manage.py audit_chips` does: its exit status and its output."""
    try:
        execute_from_command_line(["manage.py", "audit_chips"])
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    else:
        status = 0
    captured = capsys.readouterr()
    return status, captured.out + captured.err


@pytest.fixture
def sound_ledger() -> None:
    staff = StaffFactory()
    alice, bob = PlayerFactory(username="alice"), PlayerFactory(username="bob")
    funded(alice, 10_000)
    funded(bob, 5_000)
    wallet_debit(player_id=alice.pk, amount=2_500, kind=LedgerKind.WITHDRAWAL)
    wallet_credit(
        player_id=bob.pk, amount=300, kind=LedgerKind.ADJUSTMENT, staff=staff, reason="goodwill"
    )


def test_audit_passes_on_a_sound_ledger(
    sound_ledger: None, capsys: pytest.CaptureFixture[str]
) -> None:
    status, output = audit(capsys)

    assert status == 0, output
    assert "Chips conserved: $128.00 in, balances $128.00" in output


def test_audit_passes_with_chips_held_at_the_tables(
    sound_ledger: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = LedgerEntry.objects.filter(player__username="alice").first()
    assert alice is not None
    wallet_debit(player_id=alice.player_id, amount=4_000, kind=LedgerKind.BUY_IN)
    monkeypatch.setattr(
        "accounts.management.commands.audit_chips.room_chip_totals",
        lambda: {"on_tables": 3_000, "in_pots": 900, "rake": 100},
    )

    status, output = audit(capsys)

    assert status == 0, output


def test_audit_fails_when_chips_at_the_tables_are_missing(
    sound_ledger: None, capsys: pytest.CaptureFixture[str]
) -> None:
    alice = LedgerEntry.objects.filter(player__username="alice").first()
    assert alice is not None
    wallet_debit(player_id=alice.player_id, amount=4_000, kind=LedgerKind.BUY_IN)

    status, output = audit(capsys)

    assert status == 1
    assert "conservation: deposits - withdrawals + adjustments + play money = $128.00" in output
    assert "(off by -$40.00)" in output
    assert "tables: buy-ins - cash-outs = $40.00 but on_tables + in_pots + rake = $0.00" in output


def test_audit_fails_naming_a_balance_changed_behind_the_ledger(
    sound_ledger: None, capsys: pytest.CaptureFixture[str]
) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE accounts_player SET balance = balance + 100000 WHERE username = %s", ["bob"]
        )

    status, output = audit(capsys)

    assert status == 1
    assert "player bob" in output
    assert "balance $1,053.00 != ledger sum $53.00" in output
    assert "balance $1,053.00 != last ledger balance_after $53.00" in output
    assert "conservation:" in output
    assert "player alice" not in output


def test_audit_fails_naming_a_ledger_row_changed_behind_the_service(
    sound_ledger: None, capsys: pytest.CaptureFixture[str]
) -> None:
    deposit = LedgerEntry.objects.get(player__username="alice", kind=LedgerKind.DEPOSIT)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE accounts_ledgerentry SET amount = 1 WHERE id = %s", [deposit.pk])

    status, output = audit(capsys)

    assert status == 1
    assert "player alice" in output
    assert "balance $75.00 != ledger sum -$24.99" in output


def test_audit_flags_a_row_whose_sign_contradicts_its_kind(
    sound_ledger: None, capsys: pytest.CaptureFixture[str]
) -> None:
    deposit = LedgerEntry.objects.get(player__username="bob", kind=LedgerKind.DEPOSIT)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE accounts_ledgerentry SET amount = -5000 WHERE id = %s", [deposit.pk])

    status, output = audit(capsys)

    assert status == 1
    assert f"ledger row {deposit.pk} (deposit for bob) has the wrong sign" in output


def test_call_command_raises_on_a_mismatch(sound_ledger: None) -> None:
    with connection.cursor() as cursor:
        cursor.execute("UPDATE accounts_player SET balance = 1 WHERE username = %s", ["alice"])

    with pytest.raises(Exception, match="audit_chips failed"):
        call_command("audit_chips")
