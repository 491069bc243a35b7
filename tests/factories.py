"""factory-boy factories shared by the integration tests.

Balances are never set directly: fund a player through accounts.services (see `funded`).
"""

from __future__ import annotations

import factory

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
