"""The request of a logged-in player, for type hints."""

from __future__ import annotations

from django.http import HttpRequest

from accounts.models import Player


class PlayerRequest(HttpRequest):
    """A request behind login_required or the admin's staff check: its user is a Player,
    never the anonymous user (the decorator answered that request before the view)."""

    user: Player
