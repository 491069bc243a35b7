"""Table chat: a message goes to everyone at the table at once, and the last CHAT_KEPT stay
(in the cache: Redis with the services, the process's memory embedded) so that a reload
shows them again (the snapshot's `chat`). Chat is talk, not play: nothing of it is in the
database or a hand's history. A player's mutes are kept on their account (accounts.ChatMute):
the snapshot's `chat_muted` lists them and the browser hides those players' lines."""

from __future__ import annotations

from datetime import datetime

from accounts.models import Player
from accounts.services import ChatMuteRefused
from accounts.services import chat_mute_set as account_chat_mute_set
from pokerroom.process_cache import process_cache
from tables.common import CHAT_KEPT, CHAT_KEPT_SECONDS, chat_cache_key, now_or
from tables.realtime.frames import Chat, frame_json
from tables.services.broadcast import broadcast
from tables.services.results import Frames, Refusal, TableResult, refused


def chat_post(
    *, table_id: int, player: Player, text: str, now: datetime | None = None
) -> TableResult:
    """Say `text` (already cleaned: tables.realtime.protocol) at the table: its `chat` frame
    is kept among the table's last messages and broadcast to the table's group, the way the
    services' frames go (tables.services.broadcast). Nothing is locked or written: chat is
    talk, not play."""
    frame = Chat(
        table_id=table_id,
        player_id=player.pk,
        name=player.table_name,
        text=text,
        at=now_or(now).isoformat(),
    )
    key = chat_cache_key(table_id)
    cache = process_cache()  # not the per-context proxy: one Redis pool per process
    kept = list(cache.get(key) or [])
    kept.append(frame_json(frame))
    cache.set(key, kept[-CHAT_KEPT:], CHAT_KEPT_SECONDS)
    frames = Frames(table=[frame])
    broadcast(table_id=table_id, frames=frames)
    return TableResult("applied", table_id, frames=frames)


def chat_mute_set(*, table_id: int, player: Player, muted_id: int, on: bool) -> TableResult:
    """Mute (or unmute) a player's chat from the table, on the account. Not a table change:
    nothing is locked at the table and nothing is broadcast. Refused `bad_player` for
    oneself or no such player."""
    try:
        account_chat_mute_set(player_id=player.pk, muted_id=muted_id, on=on)
    except ChatMuteRefused as refusal:
        return refused(table_id, Refusal.BAD_PLAYER, str(refusal))
    return TableResult("applied", table_id)
