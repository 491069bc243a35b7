from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Players and wallet"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from accounts.two_factor import second_factor_flag_at_login

        user_logged_in.connect(second_factor_flag_at_login, dispatch_uid="second_factor_flag")
