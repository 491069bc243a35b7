"""Pages of the accounts app. Thin: forms validate, services write, selectors read."""

from __future__ import annotations

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from accounts.email_confirmation import email_confirm_read
from accounts.forms import (
    NAME_TAKEN_MESSAGE,
    AccountCloseForm,
    CashierRequestForm,
    PlayerSettingsForm,
    PlayLimitForm,
    SignUpForm,
)
from accounts.http import PlayerRequest
from accounts.limits import (
    BREAK_LENGTHS,
    PlayLimitInvalid,
    break_in_force,
    play_break_take,
    play_limit_set,
    play_limits_view,
)
from accounts.models import NameTaken
from accounts.money import cents_format
from accounts.names import NameRefused
from accounts.selectors import (
    chat_muted_players,
    player_cashier_requests,
    player_ledger,
    player_sessions,
    sessions_open,
)
from accounts.services import (
    AccountCloseRefused,
    CashierRefused,
    ChatMuteRefused,
    EmailConfirmRefused,
    TopUpRefused,
    all_in_protection_remaining,
    cashier_request,
    chat_mute_set,
    email_confirmation_send,
    play_money_room,
    player_account_close,
    player_email_confirm,
    player_sessions_end,
    player_settings_update,
    player_sign_up,
    wallet_top_up,
    wallet_top_up_refusal,
)
from pokerroom.room_day import room_moment_text

LEDGER_PAGE_SIZE = 50
CASHIER_LIST_SIZE = 50


def _name_error(error: Exception) -> str:
    return NAME_TAKEN_MESSAGE if isinstance(error, NameTaken) else str(error)


def _sign_up_grant() -> dict[str, int]:
    """What a new player is given to play with (0 in a real-money room)."""
    return {"grant": settings.PLAY_MONEY_SIGN_UP_GRANT if play_money_room() else 0}


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
            return render(request, "registration/signup.html", {"form": form, **_sign_up_grant()})
        login(request, player, backend="django.contrib.auth.backends.ModelBackend")
        # The same answer whether or not another account holds the address (issue #22).
        _email_confirmation_send(request, player.pk)
        welcome = f"Welcome to the room, {player.username}."
        if player.balance:
            welcome += f" You have {cents_format(player.balance)} of play money to play with."
        welcome += f" We have mailed {player.email}: open the link in it to confirm the address."
        messages.success(request, welcome)
        return redirect("lobby")
    return render(request, "registration/signup.html", {"form": form, **_sign_up_grant()})


def _email_confirmation_send(request: HttpRequest, player_id: int) -> None:
    email_confirmation_send(
        player_id=player_id,
        address=get_client_ip_address(request),
        site=f"{request.scheme}://{request.get_host()}",
    )


@login_required
@require_http_methods(["POST"])
def email_confirm_again(request: PlayerRequest) -> HttpResponse:
    """My account's "Send the link again" (the sign-up's mail, within its hourly limits)."""
    if not request.user.email_confirmed:
        _email_confirmation_send(request, request.user.pk)
        messages.success(
            request, f"We have mailed {request.user.email} again: open the link in it."
        )
    return redirect("account")


@require_http_methods(["GET", "POST"])
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The mailed link: a page with a button (a mail scanner opening the link confirms
    nothing), which confirms the address for the account the link names."""
    named = email_confirm_read(token)
    if request.method == "POST" and named is not None:
        try:
            player_email_confirm(player_id=named.player_id, email=named.email)
        except EmailConfirmRefused as refusal:
            messages.error(request, str(refusal))
        else:
            messages.success(request, "Your email address is confirmed.")
        return redirect("account" if request.user.is_authenticated else "login")
    return render(
        request, "registration/email_confirm.html", {"email": named.email if named else None}
    )


@login_required
@require_http_methods(["GET", "POST"])
def player_settings(request: PlayerRequest) -> HttpResponse:
    form = PlayerSettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            player_settings_update(player_id=request.user.pk, **form.cleaned_data)
        except (NameRefused, NameTaken) as error:
            form.add_error("display_name", _name_error(error))
            return _settings_page(request, form)
        messages.success(request, "Your settings are saved.")
        return redirect("settings")
    return _settings_page(request, form)


def _settings_page(request: PlayerRequest, form: PlayerSettingsForm) -> HttpResponse:
    muted = chat_muted_players(request.user.pk)
    sessions = sessions_open(player_sessions(player_id=request.user.pk))
    return render(
        request,
        "accounts/settings.html",
        {
            "form": form,
            "muted_players": muted,
            "sessions": sessions,
            "this_session_key": request.session.session_key,
        },
    )


@login_required
@require_http_methods(["POST"])
def sessions_end_others(request: PlayerRequest) -> HttpResponse:
    """The settings page's "Log out everywhere else": every other session of the player ends;
    this one stays."""
    ended = player_sessions_end(
        player_id=request.user.pk, keep_session_key=request.session.session_key
    )
    messages.success(
        request,
        f"Logged out everywhere else ({ended} other session{'' if ended == 1 else 's'} ended).",
    )
    return redirect("settings")


@login_required
@require_http_methods(["POST"])
def chat_unmute(request: PlayerRequest) -> HttpResponse:
    """The settings page's "Unmute": that player's chat shows again at every table."""
    try:
        muted_id = int(request.POST.get("player_id", ""))
        chat_mute_set(player_id=request.user.pk, muted_id=muted_id, on=False)
    except (ValueError, ChatMuteRefused):
        messages.error(request, "No such muted player.")
    else:
        messages.success(request, "Their chat shows again.")
    return redirect("settings")


@login_required
def account(request: PlayerRequest) -> HttpResponse:
    player = request.user
    now = timezone.now()
    ledger = Paginator(player_ledger(player_id=player.pk), LEDGER_PAGE_SIZE)
    page = ledger.get_page(request.GET.get("page"))
    play_money = play_money_room()
    return render(
        request,
        "accounts/account.html",
        {
            "player": player,
            "ledger_page": page,
            "all_ins_remaining": all_in_protection_remaining(player=player, now=now),
            "play_money": play_money,
            "top_up_refusal": wallet_top_up_refusal(player=player, now=now) if play_money else None,
            "top_up_amount": settings.PLAY_MONEY_TOP_UP_AMOUNT,
            "top_up_floor": settings.PLAY_MONEY_TOP_UP_FLOOR,
        },
    )


@login_required
@require_http_methods(["POST"])
def top_up(request: PlayerRequest) -> HttpResponse:
    """Play money: the once-a-day top-up (accounts.services.wallet_top_up)."""
    try:
        entry = wallet_top_up(player_id=request.user.pk, now=timezone.now())
    except TopUpRefused as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            f"Topped up {cents_format(entry.amount)}: your balance is "
            f"{cents_format(entry.balance_after)}.",
        )
    return redirect("account")


@login_required
@require_http_methods(["GET", "POST"])
def cashier(request: PlayerRequest) -> HttpResponse:
    """Real money: ask for a deposit or a withdrawal; staff approve it in the admin."""
    if play_money_room():
        # A page that says so (a link or an old bookmark lands here), never a 404.
        return render(
            request,
            "accounts/cashier_play_money.html",
            {
                "player": request.user,
                "top_up_amount": settings.PLAY_MONEY_TOP_UP_AMOUNT,
                "top_up_floor": settings.PLAY_MONEY_TOP_UP_FLOOR,
            },
        )
    form = CashierRequestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            made = cashier_request(
                player_id=request.user.pk,
                kind=form.cleaned_data["kind"],
                amount=form.cleaned_data["amount"],
            )
        except CashierRefused as error:
            form.add_error("amount", str(error))
        else:
            messages.success(
                request,
                f"Your {made.get_kind_display().lower()} request of "
                f"{cents_format(made.amount)} is with the cashier.",
            )
            return redirect("cashier")
    return render(
        request,
        "accounts/cashier.html",
        {
            "form": form,
            "player": request.user,
            "requests": player_cashier_requests(player_id=request.user.pk)[:CASHIER_LIST_SIZE],
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def play_limits(request: PlayerRequest) -> HttpResponse:
    """Limits the player sets (issue #26): lower at once, raise or remove after 24 hours."""
    form = PlayLimitForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            limit = play_limit_set(
                player_id=request.user.pk,
                kind=form.cleaned_data["kind"],
                amount=form.cleaned_data["amount"],
            )
        except PlayLimitInvalid as error:
            form.add_error("amount", str(error))
        else:
            if limit.raise_pending:
                messages.success(request, "Saved: the higher limit (or none) starts in 24 hours.")
            else:
                messages.success(request, "Saved: the limit is in force now.")
            return redirect("play_limits")
    return render(
        request,
        "accounts/limits.html",
        {
            "form": form,
            "limits": play_limits_view(player_id=request.user.pk),
            "on_break": break_in_force(request.user.pk),
        },
    )


@login_required
@require_http_methods(["POST"])
def play_break(request: PlayerRequest) -> HttpResponse:
    """Take a break (24 h, 7 d, 30 d) or self-exclude (6 months, 1 y, 5 y): it takes effect
    at the end of each hand the player is in, never folding it."""
    length = request.POST.get("length", "")
    if length not in BREAK_LENGTHS or request.POST.get("confirm") != "yes":
        messages.error(request, "Choose how long, and tick the box to confirm.")
        return redirect("play_limits")
    taken = play_break_take(player_id=request.user.pk, length=length)
    messages.success(
        request,
        f"Your {taken.get_kind_display().lower()} runs until {room_moment_text(taken.ends_at)}."
        " You leave each table when its hand ends.",
    )
    return redirect("play_limits")


@login_required
@require_http_methods(["GET", "POST"])
def account_close(request: PlayerRequest) -> HttpResponse:
    """Close my account: what is kept and what goes, then the password to confirm."""
    form = AccountCloseForm(request.POST or None, player=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            player_account_close(player_id=request.user.pk)
        except AccountCloseRefused as error:
            messages.error(request, str(error))
            return redirect("account")
        logout(request)
        messages.success(request, "Your account is closed. Thank you for playing.")
        return redirect("login")
    return render(
        request,
        "accounts/close.html",
        {"form": form, "play_money": play_money_room(), "balance": request.user.balance},
    )
