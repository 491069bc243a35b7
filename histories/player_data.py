"""A player's data as one download (issue #26 item 4): their account, their ledger and every
hand they played, in the formats the room already writes (the hand histories' PokerStars text,
PHH and JSON; the ledger as CSV). Only their own: each hand is their copy (R-HIST-2: other
players' down cards only where shown), the ledger and account theirs alone."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from accounts.models import PlayBreak, Player, PlayLimit
from accounts.money import cents_format
from accounts.selectors import player_ledger
from histories.selectors import hand_filename, hand_json, hand_phh, hand_text, played_hands

ACCOUNT_FIELDS = (
    "username",
    "display_name",
    "email",
    "email_confirmed",
    "date_joined",
    "last_login",
    "balance",
    "auto_ante",
    "auto_muck",
    "confirm_free_fold",
    "four_colour_deck",
    "all_in_allowance",
)
LEDGER_COLUMNS = ("created_at", "kind", "amount", "balance_after", "reason", "reference", "staff")


def _account(player: Player) -> dict[str, Any]:
    account: dict[str, Any] = {field: getattr(player, field) for field in ACCOUNT_FIELDS}
    account["balance_text"] = cents_format(player.balance)
    account["limits"] = [
        {
            "kind": limit.kind,
            "amount": limit.amount,
            "raise_to": limit.raise_to,
            "raise_at": limit.raise_at,
        }
        for limit in PlayLimit.objects.filter(player=player).order_by("kind")
    ]
    account["breaks"] = [
        {"kind": taken.kind, "starts_at": taken.starts_at, "ends_at": taken.ends_at}
        for taken in PlayBreak.objects.filter(player=player).order_by("starts_at")
    ]
    return account


def _ledger_csv(player: Player) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(LEDGER_COLUMNS)
    for entry in player_ledger(player_id=player.pk).order_by("created_at", "id"):
        writer.writerow(
            [
                entry.created_at.isoformat(),
                entry.kind,
                entry.amount,
                entry.balance_after,
                entry.reason,
                entry.reference,
                entry.staff.username if entry.staff else "",
            ]
        )
    return buffer.getvalue()


def player_data_zip(*, player: Player) -> bytes:
    """account.json, ledger.csv (amounts in cents) and hands/ (each hand the player was dealt
    into as PokerStars text, PHH and JSON, their copy)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(
            "account.json", json.dumps(_account(player), cls=DjangoJSONEncoder, indent=2)
        )
        archive.writestr("ledger.csv", _ledger_csv(player))
        for played in played_hands(player_id=player.pk):
            stem = f"hands/hand-{played.hand.pk}"
            archive.writestr(f"hands/{hand_filename(played)}", hand_text(played))
            archive.writestr(f"{stem}.phh", hand_phh(played))
            archive.writestr(
                f"{stem}.json", json.dumps(hand_json(played), cls=DjangoJSONEncoder, indent=2)
            )
    return buffer.getvalue()
