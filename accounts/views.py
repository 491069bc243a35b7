"""Pages of the accounts app. Thin: forms validate, services write, selectors read."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from accounts.forms import NAME_TAKEN_MESSAGE, PlayerSettingsForm, SignUpForm
from accounts.http import PlayerRequest
from accounts.models import NameTaken
from accounts.names import NameRefused
from accounts.selectors import player_ledger
from accounts.services import (
    all_in_protection_remaining,
    player_settings_update,
    player_sign_up,
)

LEDGER_PAGE_SIZE = 50


def _name_error(error: Exception) -> str:
    return NAME_TAKEN_MESSAGE if isinstance(error, NameTaken) else str(error)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = player_sign_up(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
        except (NameRefused, NameTaken) as error:
            # Another player took a like name between the form's check and the write.
            form.add_error("username", _name_error(error))
            return render(request, "registration/signup.html", {"form": form})
        login(request, player, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome to the room, {player.username}.")
        return redirect("lobby")
    return render(request, "registration/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def player_settings(request: PlayerRequest) -> HttpResponse:
    form = PlayerSettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            player_settings_update(player_id=request.user.pk, **form.cleaned_data)
        except (NameRefused, NameTaken) as error:
            form.add_error("display_name", _name_error(error))
            return render(request, "accounts/settings.html", {"form": form})
        messages.success(request, "Your settings are saved.")
        return redirect("settings")
    return render(request, "accounts/settings.html", {"form": form})


@login_required
def account(request: PlayerRequest) -> HttpResponse:
    player = request.user
    ledger = Paginator(player_ledger(player_id=player.pk), LEDGER_PAGE_SIZE)
    page = ledger.get_page(request.GET.get("page"))
    return render(
        request,
        "accounts/account.html",
        {
            "player": player,
            "ledger_page": page,
            "all_ins_remaining": all_in_protection_remaining(player=player, now=timezone.now()),
        },
    )
