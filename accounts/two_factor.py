"""Two-factor logins (issue #26): time-based one-time passwords (RFC 6238, django-otp's TOTP
device) with recovery codes (django-otp's static device, each code good once).

Required of every staff account before any page of the room (the admin, the staff reports
and dashboard, every staff view: `accounts.second_factor_gate`); optional for players, who
turn it on from their settings and are then asked for a code at each login. These are the
services of it: each write one transaction."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from urllib.parse import quote

import segno
from django.db import transaction
from django_otp import user_has_device
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.models import Player

ISSUER = "Stud Room"
AUTHENTICATOR_NAME = "Authenticator app"
RECOVERY_NAME = "Recovery codes"
RECOVERY_CODES = 10
# The session key that says a login still owes its second factor (set at login, for players
# who turned two-factor on; staff always owe it).
SECOND_FACTOR_SESSION_KEY = "second_factor_required"


class TwoFactorRefused(Exception):
    """A code that does not match, or a change the account may not make."""


@dataclass(frozen=True)
class AuthenticatorSetup:
    """What the set-up page shows: the secret in base32 (typed into an app by hand), the
    otpauth:// URI and its QR code as inline SVG."""

    secret: str
    uri: str
    qr_svg: str


def second_factor_owed(player: Player) -> bool:
    """Staff always log in with a second factor; a player once they turned it on."""
    return bool(player.is_staff or user_has_device(player, confirmed=True))


def base32_secret(device: TOTPDevice) -> str:
    return base64.b32encode(device.bin_key).decode("ascii").rstrip("=")


def otpauth_uri(device: TOTPDevice, username: str) -> str:
    label = quote(f"{ISSUER}:{username}")
    return (
        f"otpauth://totp/{label}?secret={base32_secret(device)}&issuer={quote(ISSUER)}"
        f"&digits={device.digits}&period={device.step}"
    )


def authenticator_setup(device: TOTPDevice, username: str) -> AuthenticatorSetup:
    uri = otpauth_uri(device, username)
    qr_svg = segno.make(uri, error="m").svg_inline(scale=4, dark="#111", light="#fff")
    return AuthenticatorSetup(secret=base32_secret(device), uri=uri, qr_svg=qr_svg)


def authenticator_pending(*, player: Player) -> TOTPDevice:
    """The unconfirmed authenticator the set-up page shows (one per player, kept across
    reloads of the page so the QR code scanned stays the one confirmed)."""
    with transaction.atomic():
        device = TOTPDevice.objects.filter(user=player, confirmed=False).first()
        if device is None:
            device = TOTPDevice.objects.create(
                user=player, name=AUTHENTICATOR_NAME, confirmed=False
            )
    return device


def _recovery_codes_write(player: Player) -> list[str]:
    device, _ = StaticDevice.objects.get_or_create(
        user=player, name=RECOVERY_NAME, defaults={"confirmed": True}
    )
    device.token_set.all().delete()
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create(StaticToken(device=device, token=code) for code in codes)
    return codes


def authenticator_confirm(*, player: Player, token: str) -> tuple[TOTPDevice, list[str]]:
    """The first code from the app confirms it: the player's older authenticators go, and a
    fresh set of recovery codes is made (shown once). Refused when the code does not match."""
    with transaction.atomic():
        device = TOTPDevice.objects.select_for_update().filter(user=player, confirmed=False).first()
        if device is None or not device.verify_token(token.strip()):
            raise TwoFactorRefused("That code does not match: type the one your app shows now.")
        TOTPDevice.objects.filter(user=player, confirmed=True).delete()
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        codes = _recovery_codes_write(player)
    return device, codes


def recovery_codes_renew(*, player: Player) -> list[str]:
    """New recovery codes for a player with an authenticator; the old ones stop working."""
    with transaction.atomic():
        if not TOTPDevice.objects.filter(user=player, confirmed=True).exists():
            raise TwoFactorRefused("Set up an authenticator app first.")
        return _recovery_codes_write(player)


def two_factor_turn_off(*, player: Player) -> None:
    """A player may turn two-factor off again; a staff account may not."""
    if player.is_staff:
        raise TwoFactorRefused("Staff accounts always log in with a second factor.")
    with transaction.atomic():
        TOTPDevice.objects.filter(user=player).delete()
        StaticDevice.objects.filter(user=player).delete()


def recovery_codes_left(player: Player) -> int:
    return StaticToken.objects.filter(device__user=player, device__confirmed=True).count()


def has_authenticator(player: Player) -> bool:
    return TOTPDevice.objects.filter(user=player, confirmed=True).exists()


# --- The demo room's staff login (`make run`; README "Demo logins") ---------------------------
# A published secret: for the demo only, never a real room.
DEMO_TOTP_SECRET_HEX = "3132333435363738393031323334353637383930"  # RFC 6238's test key
DEMO_RECOVERY_CODE = "demorecovery1"


@dataclass(frozen=True)
class DemoSecondFactor:
    secret: str
    uri: str
    recovery_code: str


def demo_second_factor(*, player: Player) -> DemoSecondFactor:
    """The demo staff's authenticator (a fixed, published secret) and one recovery code, put
    back if used: idempotent, like the rest of the demo room."""
    with transaction.atomic():
        device, _ = TOTPDevice.objects.get_or_create(
            user=player,
            name="Demo authenticator",
            defaults={"key": DEMO_TOTP_SECRET_HEX, "confirmed": True},
        )
        recovery, _ = StaticDevice.objects.get_or_create(
            user=player, name=RECOVERY_NAME, defaults={"confirmed": True}
        )
        recovery.token_set.get_or_create(token=DEMO_RECOVERY_CODE)
    return DemoSecondFactor(
        secret=base32_secret(device),
        uri=otpauth_uri(device, player.username),
        recovery_code=DEMO_RECOVERY_CODE,
    )


def current_code(device: TOTPDevice) -> str:
    """The code an authenticator shows now for this device (the demo's `demo_otp_code`)."""
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    return f"{totp.token():0{device.digits}d}"


def second_factor_flag_at_login(sender: object, request: object, user: Player, **_: object) -> None:
    """`user_logged_in`: note in the session whether this login owes a second factor (read by
    accounts.second_factor_gate on every page, so a player's pages cost no device query)."""
    session = getattr(request, "session", None)
    if session is not None:
        session[SECOND_FACTOR_SESSION_KEY] = second_factor_owed(user)
