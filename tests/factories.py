"""factory-boy factories shared by the integration tests.

Balances are never set directly: fund a player through accounts.services (see `funded`).
"""

from __future__ import annotations

from typing import Any

import factory
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.models import LedgerEntry, LedgerKind, Player
from accounts.services import wallet_credit

PASSWORD = "correct-horse-battery-staple"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda player: f"{player.username}@example.com")
    password = factory.django.Password(PASSWORD)


class StaffFactory(PlayerFactory):
    username = factory.Sequence(lambda n: f"dealer{n}")
    is_staff = True
    is_superuser = True


def funded(player: Player, cents: int, *, reason: str = "test deposit") -> LedgerEntry:
    """Deposit `cents` into a player's wallet the only way money arrives: the service."""
    entry = wallet_credit(player_id=player.pk, amount=cents, kind=LedgerKind.DEPOSIT, reason=reason)
    player.refresh_from_db(fields=["balance"])
    return entry


def authenticator_for(player: Player) -> TOTPDevice:
    """A confirmed authenticator app (TOTP) for a player or staff member (issue #26)."""
    return TOTPDevice.objects.create(user=player, name="Test authenticator", confirmed=True)


def log_in_staff(client: Any, staff: Player | None = None) -> Player:
    """Log a staff member (a new one by default) into a test client with a verified second
    factor, as the login with its one-time password leaves the session: every staff page
    needs one (accounts.second_factor_gate)."""
    staff = staff if staff is not None else StaffFactory()
    device = authenticator_for(staff)
    client.force_login(staff)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()
    return staff
