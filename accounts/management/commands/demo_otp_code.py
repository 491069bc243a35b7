"""manage.py demo_otp_code: the one-time password the demo staff's authenticator shows now
(`make run`'s demo room only: its secret is published in the README)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.two_factor import DEMO_TOTP_SECRET_HEX, current_code


class Command(BaseCommand):
    help = "Print the demo staff's one-time password of now (the demo room's published secret)."

    def handle(self, *args: Any, **options: Any) -> None:
        device = TOTPDevice.objects.filter(key=DEMO_TOTP_SECRET_HEX, confirmed=True).first()
        if device is None:
            raise CommandError("No demo staff authenticator: run `manage.py load_demo` first.")
        self.stdout.write(current_code(device))
