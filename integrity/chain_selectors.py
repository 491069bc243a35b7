"""Reads of the fairness chain for the public page, the API and a hand's page."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from integrity.chain import GENESIS_HASH
from integrity.models import FairnessEntry


@dataclass(frozen=True)
class ChainHead:
    """The chain's last entry (None while no hand was dealt) and its length."""

    length: int
    head: FairnessEntry | None

    @property
    def head_hash(self) -> str:
        return GENESIS_HASH if self.head is None else self.head.entry_hash


def chain_head() -> ChainHead:
    head = FairnessEntry.objects.order_by("-index").first()
    return ChainHead(length=0 if head is None else head.index + 1, head=head)


def chain_entries(*, start: int = 0) -> QuerySet[FairnessEntry]:
    """The entries from index `start` on, in chain order (paged by the caller)."""
    return FairnessEntry.objects.filter(index__gte=start).order_by("index")


def hand_entry(*, hand_id: int) -> FairnessEntry | None:
    return FairnessEntry.objects.filter(hand_id=hand_id).first()


@dataclass(frozen=True)
class HandChainPath:
    """A hand's entry and the way from it to the head: the entry after it (which names its
    hash), how many entries follow, and the head now."""

    entry: FairnessEntry
    next_entry: FairnessEntry | None
    entries_after: int
    head: ChainHead


def hand_chain_path(*, hand_id: int) -> HandChainPath | None:
    entry = hand_entry(hand_id=hand_id)
    if entry is None:
        return None
    head = chain_head()
    return HandChainPath(
        entry=entry,
        next_entry=FairnessEntry.objects.filter(index=entry.index + 1).first(),
        entries_after=head.length - entry.index - 1,
        head=head,
    )


def entry_json(entry: FairnessEntry) -> dict[str, object]:
    return {
        "index": entry.index,
        "hand_id": entry.hand_id,
        "table_id": entry.table_id,
        "at": entry.at,
        "commitment": entry.commitment,
        "previous_hash": entry.previous_hash,
        "entry_hash": entry.entry_hash,
    }
