from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import two_factor_views, views
from accounts.forms import RoomPasswordResetForm

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", views.account, name="account"),
    path("settings/", views.player_settings, name="settings"),
    path("settings/sessions/end/", views.sessions_end_others, name="sessions_end_others"),
    path("settings/unmute/", views.chat_unmute, name="chat_unmute"),
    path("email/confirm/again/", views.email_confirm_again, name="email_confirm_again"),
    path("email/confirm/<str:token>/", views.email_confirm, name="email_confirm"),
    path("close/", views.account_close, name="account_close"),
    path("top-up/", views.top_up, name="top_up"),
    path("limits/", views.play_limits, name="play_limits"),
    path("limits/break/", views.play_break, name="play_break"),
    path("cashier/", views.cashier, name="cashier"),
    path("two-factor/", two_factor_views.two_factor_page, name="two_factor"),
    path("two-factor/setup/", two_factor_views.two_factor_setup, name="two_factor_setup"),
    path("two-factor/verify/", two_factor_views.two_factor_verify, name="two_factor_verify"),
    path(
        "two-factor/recovery-codes/",
        two_factor_views.two_factor_codes_renew,
        name="two_factor_codes_renew",
    ),
    path("two-factor/off/", two_factor_views.two_factor_off, name="two_factor_off"),
    path(
        "password-reset/",
        auth_views.PasswordResetView.as_view(form_class=RoomPasswordResetForm),
        name="password_reset",
    ),
    path(
        "password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
