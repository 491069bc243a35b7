"""The pages of two-factor logins (issue #26): set up an authenticator app (a QR code), give
the second factor at login, renew recovery codes, turn it off (players only). Thin: the
services of accounts.two_factor write."""

from __future__ import annotations

from urllib.parse import urlencode

import django_otp
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from accounts.http import PlayerRequest
from accounts.two_factor import (
    SECOND_FACTOR_SESSION_KEY,
    TwoFactorRefused,
    authenticator_confirm,
    authenticator_pending,
    authenticator_setup,
    has_authenticator,
    recovery_codes_left,
    recovery_codes_renew,
    two_factor_turn_off,
)


def _next_url(request: PlayerRequest) -> str:
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return wanted if safe and wanted else "/"


def _owes(request: PlayerRequest) -> bool:
    return not request.user.is_verified()  # type: ignore[attr-defined]


@login_required
@require_http_methods(["GET", "POST"])
def two_factor_setup(request: PlayerRequest) -> HttpResponse:
    """Scan the QR code (or type the secret), then type the first code to confirm it. A login
    already holding a second factor must give it again before it can replace it."""
    player = request.user
    if has_authenticator(player) and _owes(request):
        query = urlencode({"next": request.get_full_path()})
        return redirect(f"{reverse('two_factor_verify')}?{query}")
    device = authenticator_pending(player=player)
    error = None
    if request.method == "POST":
        try:
            confirmed, codes = authenticator_confirm(player=player, token=request.POST["token"])
        except (TwoFactorRefused, KeyError) as refused:
            error = str(refused) if isinstance(refused, TwoFactorRefused) else "Type the code."
        else:
            django_otp.login(request, confirmed)
            request.session[SECOND_FACTOR_SESSION_KEY] = True
            return render(
                request,
                "accounts/two_factor_codes.html",
                {"codes": codes, "next": _next_url(request)},
            )
    return render(
        request,
        "accounts/two_factor_setup.html",
        {
            "setup": authenticator_setup(device, player.username),
            "error": error,
            "next": _next_url(request),
            "replacing": has_authenticator(player),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def two_factor_verify(request: PlayerRequest) -> HttpResponse:
    """The second step of a login: a code from the app, or one recovery code."""
    error = None
    if request.method == "POST":
        device = django_otp.match_token(request.user, request.POST.get("token", "").strip())
        if device is not None:
            django_otp.login(request, device)
            return redirect(_next_url(request))
        error = "That code does not match. Type the one your app shows now, or a recovery code."
    return render(
        request, "accounts/two_factor_verify.html", {"error": error, "next": _next_url(request)}
    )


@login_required
def two_factor_page(request: PlayerRequest) -> HttpResponse:
    """Settings' "Two-factor login": on or off, recovery codes left, renew, turn off."""
    player = request.user
    return render(
        request,
        "accounts/two_factor.html",
        {
            "on": has_authenticator(player),
            "codes_left": recovery_codes_left(player),
            "staff": player.is_staff,
        },
    )


@login_required
@require_http_methods(["POST"])
def two_factor_codes_renew(request: PlayerRequest) -> HttpResponse:
    try:
        codes = recovery_codes_renew(player=request.user)
    except TwoFactorRefused as refused:
        messages.error(request, str(refused))
        return redirect("two_factor")
    return render(request, "accounts/two_factor_codes.html", {"codes": codes, "next": "/"})


@login_required
@require_http_methods(["POST"])
def two_factor_off(request: PlayerRequest) -> HttpResponse:
    try:
        two_factor_turn_off(player=request.user)
    except TwoFactorRefused as refused:
        messages.error(request, str(refused))
    else:
        request.session[SECOND_FACTOR_SESSION_KEY] = False
        messages.success(request, "Two-factor login is off.")
    return redirect("two_factor")
