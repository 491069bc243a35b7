"""A player's logins (issue #26 item 4): each recorded at login, listed on the settings page,
and ended from there ("Log out everywhere else") or when the account closes.

Django's session store cannot be asked for one player's sessions, so `PlayerSession` keeps
their keys; ending one deletes it from the store (whatever the engine), so its cookie logs in
no more."""

from __future__ import annotations

from datetime import datetime, timedelta
from importlib import import_module
from typing import Any

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import Player, PlayerSession

# How stale a session's "last seen" may get before a request of it writes it again: a write
# per request would cost every page a query for a list read now and then.
LAST_SEEN_EVERY = timedelta(minutes=5)
USER_AGENT_MAX = 300


def _now() -> datetime:
    """The clock of logins and requests (a test sets it)."""
    return timezone.now()


def _store(session_key: str) -> Any:
    engine = import_module(settings.SESSION_ENGINE)
    return engine.SessionStore(session_key=session_key)


def player_session_record(
    *, player: Player, session_key: str, user_agent: str, address: str | None, now: datetime
) -> PlayerSession:
    """A login: its session is recorded (a key seen before is taken over by this login)."""
    session, _ = PlayerSession.objects.update_or_create(
        session_key=session_key,
        defaults={
            "player": player,
            "user_agent": user_agent[:USER_AGENT_MAX],
            "address": address,
            "started_at": now,
            "last_seen": now,
        },
    )
    return session


def player_session_seen(*, session_key: str, now: datetime) -> int:
    """A request of the session: its "last seen" moves. How many rows it moved (0: a session
    not recorded, such as one logged in before sessions were recorded)."""
    return PlayerSession.objects.filter(session_key=session_key).update(last_seen=now)


def player_session_forget(*, session_key: str) -> None:
    """A logout: the session is gone from the store already, so from the list too."""
    PlayerSession.objects.filter(session_key=session_key).delete()


def player_sessions_end(*, player_id: int, keep_session_key: str | None = None) -> int:
    """End every session of the player but `keep_session_key` (none kept when it is None):
    each is deleted from the session store, so its browser is logged out at its next request.
    Returns how many were ended."""
    with transaction.atomic():
        ended = PlayerSession.objects.select_for_update().filter(player_id=player_id)
        if keep_session_key is not None:
            ended = ended.exclude(session_key=keep_session_key)
        keys = list(ended.values_list("session_key", flat=True))
        ended.delete()
    for key in keys:
        _store(key).delete(key)
    return len(keys)


def player_sessions(*, player_id: int) -> QuerySet[PlayerSession]:
    """The player's sessions still open, the most recently seen first (a session that expired
    in the store is left out)."""
    return PlayerSession.objects.filter(player_id=player_id).order_by("-last_seen")


def sessions_open(sessions: QuerySet[PlayerSession]) -> list[PlayerSession]:
    return [
        session for session in sessions if _store(session.session_key).exists(session.session_key)
    ]


def on_user_logged_in(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """`user_logged_in`: record the session (a login without a request, as in tests'
    `force_login` with no session, is not a browser's and has nothing to record)."""
    if request is None or not hasattr(request, "session"):
        return
    if request.session.session_key is None:
        request.session.save()
    key = request.session.session_key
    assert key is not None
    player_session_record(
        player=user,
        session_key=key,
        user_agent=request.META.get("HTTP_USER_AGENT", ""),
        address=get_client_ip_address(request),
        now=_now(),
    )
    request.session[SEEN_KEY] = _now().isoformat()


def on_user_logged_out(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is not None and getattr(request, "session", None) is not None:
        key = request.session.session_key
        if key is not None:
            player_session_forget(session_key=key)


SEEN_KEY = "accounts_session_seen"


class SessionSeenMiddleware:
    """Keeps each logged-in session's "last seen" within LAST_SEEN_EVERY of its last request."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> Any:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        session = getattr(request, "session", None)
        if user is None or not user.is_authenticated or session is None:
            return response
        key = session.session_key
        if key is None:
            return response
        now = _now()
        seen = session.get(SEEN_KEY)
        if seen is None or datetime.fromisoformat(seen) + LAST_SEEN_EVERY <= now:
            if not player_session_seen(session_key=key, now=now):
                # Logged in before logins were recorded: recorded now, so the list shows it
                # and "Log out everywhere else" can end it.
                player_session_record(
                    player=user,
                    session_key=key,
                    user_agent=request.META.get("HTTP_USER_AGENT", ""),
                    address=get_client_ip_address(request),
                    now=now,
                )
            session[SEEN_KEY] = now.isoformat()
        return response
