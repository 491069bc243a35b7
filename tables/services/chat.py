"""Table chat: a message goes to everyone at the table at once, and the last CHAT_KEPT stay
(in the cache: Redis with the services, the process's memory embedded) so that a reload
shows them again (the snapshot's `chat`). Chat is talk, not play: nothing of it is in the
database or a hand's history. A player's mutes are kept on their account (accounts.ChatMute):
the snapshot's `chat_muted` lists them and the browser hides those players' lines."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from accounts.models import Player
from accounts.services import ChatMuteRefused
from accounts.services import chat_mute_set as account_chat_mute_set
from pokerroom.process_cache import process_cache
from tables.services.flow import now_or
from tables.services.results import Refusal, TableResult, refused

CHAT_KEPT = 30
CHAT_KEPT_SECONDS = 6 * 3600


def chat_cache_key(table_id: int) -> str:
    return f"table-chat:{table_id}"


def chat_post(
    *, table_id: int, player: Player, text: str, now: datetime | None = None
) -> dict[str, Any]:
    """The chat frame of `text` (already cleaned: tables.realtime.protocol), kept among the
    table's last messages; the caller broadcasts it."""
    frame = {
        "type": "chat",
        "table_id": table_id,
        "player_id": player.pk,
        "name": player.table_name,
        "text": text,
        "at": now_or(now).isoformat(),
    }
    key = chat_cache_key(table_id)
    cache = process_cache()  # not the per-context proxy: one Redis pool per process
    kept = list(cache.get(key) or [])
    kept.append(frame)
    cache.set(key, kept[-CHAT_KEPT:], CHAT_KEPT_SECONDS)
    return frame


def chat_recent(table_id: int) -> list[dict[str, Any]]:
    """The table's last chat messages, oldest first."""
    return list(process_cache().get(chat_cache_key(table_id)) or [])


def chat_mute_set(*, table_id: int, player: Player, muted_id: int, on: bool) -> TableResult:
    """Mute (or unmute) a player's chat from the table, on the account. Not a table change:
    nothing is locked at the table and nothing is broadcast. Refused `bad_player` for
    oneself or no such player."""
    try:
        account_chat_mute_set(player_id=player.pk, muted_id=muted_id, on=on)
    except ChatMuteRefused as refusal:
        return refused(table_id, Refusal.BAD_PLAYER, str(refusal))
    return TableResult("applied", table_id)
