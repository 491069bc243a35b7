from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Players and wallet"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in, user_logged_out

        from accounts.sessions import on_user_logged_in, on_user_logged_out
        from accounts.two_factor import second_factor_flag_at_login

        user_logged_in.connect(second_factor_flag_at_login, dispatch_uid="second_factor_flag")
        user_logged_in.connect(on_user_logged_in, dispatch_uid="player_session_record")
        user_logged_out.connect(on_user_logged_out, dispatch_uid="player_session_forget")
