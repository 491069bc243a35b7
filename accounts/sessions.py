"""A player's logins (issue #26 item 4): each recorded at login, listed on the settings page,
and ended from there ("Log out everywhere else") or when the account closes.

Django's session store cannot be asked for one player's sessions, so `PlayerSession` keeps
their keys; ending one deletes it from the store (whatever the engine), so its cookie logs in
no more. Here are the login signals' handlers and the middleware; what they write is in
accounts.services (player_session_*), what the settings page reads in accounts.selectors."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from axes.helpers import get_client_ip_address
from django.http import HttpRequest
from django.utils import timezone

from accounts.services import player_session_forget, player_session_record, player_session_seen

# How stale a session's "last seen" may get before a request of it writes it again: a write
# per request would cost every page a query for a list read now and then.
LAST_SEEN_EVERY = timedelta(minutes=5)


def _now() -> datetime:
    """The clock of logins and requests (a test sets it)."""
    return timezone.now()


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
