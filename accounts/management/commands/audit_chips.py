"""`manage.py audit_chips`: are the room's chips conserved? (DESIGN.md "Money")

Money put in (deposits less withdrawals, plus staff adjustments and the play money granted at
sign-up and in top-ups) must equal what is held:
players' balances, chips on cash tables, chips in pots, rake collected, the money held by
tournaments not over (their entries' buy-ins and add-ons, tournaments.audit) and tournament
fees kept (the house's, like the rake). Tournament chips are not money and are not counted.
Each player's balance must also equal the sum of their ledger and the balance_after of their
last ledger row, and each tournament's ledger lines must agree with its entries (a finished
one paid out its whole prize pool, a cancelled one refunded everything). Exits 1, naming each
mismatch, if not. The figures come from accounts.selectors.chip_audit (gathered by
tournaments.audit.room_chip_audit), which the monthly statement shows at its foot.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from accounts.money import cents_format
from tournaments.audit import room_chip_audit


class Command(BaseCommand):
    help = "Check that chips are conserved and every balance matches its ledger."

    def handle(self, *args: Any, **options: Any) -> None:
        audit = room_chip_audit()
        if audit.mismatches:
            for line in audit.mismatches:
                self.stderr.write(f"MISMATCH {line}")
            raise CommandError(f"audit_chips failed: {len(audit.mismatches)} mismatch(es)")
        self.stdout.write(
            self.style.SUCCESS(
                f"Chips conserved: {cents_format(audit.money_in)} in, "
                + ", ".join(f"{name} {cents_format(value)}" for name, value in audit.held.items())
            )
        )
