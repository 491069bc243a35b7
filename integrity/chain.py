"""The fairness chain (DESIGN.md "Fairness", issue #25): every hand's deck commitment is
appended, at the deal, to one public hash chain, so no past hand (nor its commitment) can be
rewritten or removed unnoticed by anyone holding a copy.

Entry ``i`` hashes the line ``"{i}|{hand_id}|{table_id}|{at}|{commitment}|{previous_hash}"``
(UTF-8, SHA-256 hex); ``previous_hash`` is entry ``i - 1``'s hash, 64 zeros for entry 0.
tools/verify_fairness_chain.py checks the same line with the standard library alone.

Appends are serialized: the deal appends inside its own transaction (which holds its table's
lock), and on PostgreSQL a transaction-scoped advisory lock makes deals at different tables
append one after the other, so the chain never forks (SQLite serializes every writer already).
A leaf the table services call: it imports nothing of the room's apps.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

from django.db import connection

from integrity.models import FairnessEntry

GENESIS_HASH = "0" * 64
# pg_advisory_xact_lock's key for the chain: any fixed 64-bit number no other lock uses.
CHAIN_LOCK_KEY = 0x5354554446414952  # "STUDFAIR"


def entry_line(
    *, index: int, hand_id: int, table_id: int, at: str, commitment: str, previous_hash: str
) -> str:
    return f"{index}|{hand_id}|{table_id}|{at}|{commitment}|{previous_hash}"


def entry_hash_of(
    *, index: int, hand_id: int, table_id: int, at: str, commitment: str, previous_hash: str
) -> str:
    line = entry_line(
        index=index,
        hand_id=hand_id,
        table_id=table_id,
        at=at,
        commitment=commitment,
        previous_hash=previous_hash,
    )
    return hashlib.sha256(line.encode()).hexdigest()


def at_text(at: datetime) -> str:
    """The deal's time as the chain writes and hashes it: UTC, ISO 8601, microseconds."""
    return at.astimezone(UTC).isoformat(timespec="microseconds")


def _chain_lock() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CHAIN_LOCK_KEY])


def fairness_entry_append(
    *, hand_id: int, table_id: int, commitment: str, at: datetime
) -> FairnessEntry:
    """Append a hand's commitment to the chain. Call it inside the deal's transaction (the
    lock is held to its end, so the entry and the hand are written together or not at all)."""
    _chain_lock()
    head = FairnessEntry.objects.order_by("-index").first()
    index = 0 if head is None else head.index + 1
    previous_hash = GENESIS_HASH if head is None else head.entry_hash
    at_hashed = at_text(at)
    digest = entry_hash_of(
        index=index,
        hand_id=hand_id,
        table_id=table_id,
        at=at_hashed,
        commitment=commitment,
        previous_hash=previous_hash,
    )
    return FairnessEntry.objects.create(
        index=index,
        hand_id=hand_id,
        table_id=table_id,
        at=at_hashed,
        commitment=commitment,
        previous_hash=previous_hash,
        entry_hash=digest,
    )
