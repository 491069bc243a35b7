"""The only code that changes the room's tables: each function is one table change
(tables/services/change.py: one transaction that locks the table row, checks, lets the engine
decide, writes, and broadcasts after commit; a refusal writes nothing).
The contract is docs/tables-services.md."""

from tables.services.broadcast import broadcast, table_group, user_group
from tables.services.chat import chat_mute_set
from tables.services.flow import next_hand_pause, waiting_list_offer_seconds
from tables.services.hands import hand_act, hand_deadlines_sweep, hand_start, hand_time_out
from tables.services.presence import presence_sweep, seats_heartbeat
from tables.services.reality_checks import reality_check_idle_send
from tables.services.results import Frames, Refusal, TableResult
from tables.services.seats import (
    ante_confirm,
    auto_ante_turned_on,
    seat_add_chips,
    seat_heartbeat,
    seat_leave,
    seat_set_connected,
    seat_sit_in,
    seat_sit_out,
    seat_take,
    table_close,
    table_open,
)
from tables.services.showing import hand_show, player_auto_muck_set
from tables.services.waiting import (
    waiting_list_join,
    waiting_list_leave,
    waiting_list_offer_expire,
)

__all__ = [
    "Frames",
    "Refusal",
    "TableResult",
    "ante_confirm",
    "auto_ante_turned_on",
    "broadcast",
    "chat_mute_set",
    "hand_act",
    "hand_deadlines_sweep",
    "hand_show",
    "hand_start",
    "hand_time_out",
    "next_hand_pause",
    "player_auto_muck_set",
    "presence_sweep",
    "reality_check_idle_send",
    "seat_add_chips",
    "seat_heartbeat",
    "seat_leave",
    "seat_set_connected",
    "seat_sit_in",
    "seat_sit_out",
    "seat_take",
    "seats_heartbeat",
    "table_close",
    "table_group",
    "table_open",
    "user_group",
    "waiting_list_join",
    "waiting_list_leave",
    "waiting_list_offer_expire",
    "waiting_list_offer_seconds",
]
