"""The gate of two-factor logins (issue #26): a login that owes its second factor reaches no
page of the room until it is given, only the pages that take it and the way out.

Staff always owe it (the admin moves money; the staff reports, the dashboard and every other
staff page sit behind the same gate, so no staff view can be forgotten); a player owes it
once they turned two-factor on (the flag is set in the session at login). Installed after
django-otp's OTPMiddleware, which tells whether this session's login was verified."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django_otp import user_has_device

from accounts.two_factor import SECOND_FACTOR_SESSION_KEY

# What a login that still owes its second factor may open.
OPEN_PREFIXES = (
    "/accounts/two-factor/setup/",
    "/accounts/two-factor/verify/",
    "/accounts/logout/",
    "/admin/logout/",
    "/healthz",
    "/readyz",
    "/metrics",
    "/favicon.ico",
)


def owes_second_factor(request: HttpRequest) -> bool:
    user: Any = request.user
    if not user.is_authenticated or user.is_verified():
        return False
    return bool(user.is_staff or request.session.get(SECOND_FACTOR_SESSION_KEY))


def _is_open(path: str) -> bool:
    return path.startswith(OPEN_PREFIXES) or path.startswith("/" + settings.STATIC_URL.lstrip("/"))


class SecondFactorGateMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _is_open(request.path) or not owes_second_factor(request):
            return self.get_response(request)
        if request.path.startswith("/api/"):
            return JsonResponse(
                {"detail": "This login needs its second factor (a one-time password)."},
                status=403,
            )
        step = "two_factor_verify" if user_has_device(request.user, confirmed=True) else None
        target = reverse(step or "two_factor_setup")
        return redirect(f"{target}?{urlencode({'next': request.get_full_path()})}")
