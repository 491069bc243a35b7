"""What the tables app does when another app tells it something (signals), each a call of a
service: thin, as tasks and consumers are."""

from __future__ import annotations

from typing import Any

from tables import services


def on_auto_ante_turned_on(sender: Any, *, player_id: int, **kwargs: Any) -> None:
    """accounts.signals.auto_ante_turned_on: tables waiting for this player's "I'm in" go on."""
    services.auto_ante_turned_on(player_id=player_id)


def on_play_break_taken(sender: Any, *, player_id: int, **kwargs: Any) -> None:
    """accounts.signals.play_break_taken: cash the player out (each hand they are in first)."""
    from accounts.models import Player
    from tables.services.breaks import break_tables_leave

    break_tables_leave(player=Player.objects.get(pk=player_id))
