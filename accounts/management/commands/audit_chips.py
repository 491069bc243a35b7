"""`manage.py audit_chips`: are the room's chips conserved? (DESIGN.md "Money")

Money put in (deposits less withdrawals, plus staff adjustments and the play money granted at
sign-up and in top-ups) must equal what is held:
players' balances, chips on cash tables, chips in pots, rake collected, the money held by
tournaments not over (their entries' buy-ins and add-ons, tournaments.audit) and tournament
fees kept (the house's, like the rake). Tournament chips are not money and are not counted.
Each player's balance must also equal the sum of their ledger and the balance_after of their
last ledger row, and each tournament's ledger lines must agree with its entries (a finished
one paid out its whole prize pool, a cancelled one refunded everything). Exits 1, naming each
mismatch, if not.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from accounts.models import TOURNAMENT_KINDS, LedgerKind
from accounts.money import cents_format
from accounts.selectors import (
    balances_total,
    ledger_sign_errors,
    ledger_totals_by_kind,
    money_in_total,
    player_wallet_checks,
)
from tables.selectors import room_chip_totals
from tournaments.audit import tournament_money


class Command(BaseCommand):
    help = "Check that chips are conserved and every balance matches its ledger."

    def handle(self, *args: Any, **options: Any) -> None:
        mismatches: list[str] = []

        for check in player_wallet_checks():
            who = f"player {check.username} (id {check.player_id})"
            if check.balance != check.ledger_sum:
                mismatches.append(
                    f"{who}: balance {cents_format(check.balance)} != "
                    f"ledger sum {cents_format(check.ledger_sum)}"
                )
            if check.balance != check.last_balance_after:
                mismatches.append(
                    f"{who}: balance {cents_format(check.balance)} != last ledger "
                    f"balance_after {cents_format(check.last_balance_after)}"
                )

        for entry in ledger_sign_errors().select_related("player"):
            mismatches.append(
                f"ledger row {entry.pk} ({entry.kind} for {entry.player.username}) has the "
                f"wrong sign: {cents_format(entry.amount)}"
            )

        kinds = ledger_totals_by_kind()
        # Withdrawals are stored negative, so adding them subtracts.
        money_in = money_in_total(kinds)
        room = room_chip_totals()
        tournaments = tournament_money()
        held = {
            "balances": balances_total(),
            "on_tables": room.get("on_tables", 0),
            "in_pots": room.get("in_pots", 0),
            "rake": room.get("rake", 0),
            "tournaments": tournaments.held,
            "tournament_fees": tournaments.fees,
        }
        money_held = sum(held.values())
        if money_in != money_held:
            parts = " + ".join(f"{name} {cents_format(value)}" for name, value in held.items())
            mismatches.append(
                f"conservation: deposits - withdrawals + adjustments + play money = "
                f"{cents_format(money_in)}"
                f" but {parts} = {cents_format(money_held)}"
                f" (off by {cents_format(money_held - money_in)})"
            )

        # Chips that left balances for the tables / tournaments must be held there.
        at_tables = -(kinds[LedgerKind.BUY_IN] + kinds[LedgerKind.CASH_OUT])
        table_held = held["on_tables"] + held["in_pots"] + held["rake"]
        if at_tables != table_held:
            mismatches.append(
                f"tables: buy-ins - cash-outs = {cents_format(at_tables)} but on_tables + "
                f"in_pots + rake = {cents_format(table_held)}"
            )
        # Money that left balances for tournaments must be held by them or kept as fees.
        to_tournaments = -sum(kinds[kind] for kind in TOURNAMENT_KINDS)
        tournament_held = held["tournaments"] + held["tournament_fees"]
        if to_tournaments != tournament_held:
            mismatches.append(
                f"tournaments: buy-ins + add-ons + fees - refunds - prizes = "
                f"{cents_format(to_tournaments)} but tournaments + tournament_fees = "
                f"{cents_format(tournament_held)}"
            )
        mismatches.extend(tournaments.mismatches)

        if mismatches:
            for line in mismatches:
                self.stderr.write(f"MISMATCH {line}")
            raise CommandError(f"audit_chips failed: {len(mismatches)} mismatch(es)")
        self.stdout.write(
            self.style.SUCCESS(
                f"Chips conserved: {cents_format(money_in)} in, "
                + ", ".join(f"{name} {cents_format(value)}" for name, value in held.items())
            )
        )
