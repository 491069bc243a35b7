"""Issue #26: two-factor logins. Every staff account gives a one-time password (TOTP) before
the admin or any staff page; players may turn it on; recovery codes log in once each."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.two_factor import current_code
from tests.factories import PASSWORD, PlayerFactory, StaffFactory, authenticator_for

pytestmark = pytest.mark.django_db

STAFF_PAGES = ["/admin/", "/admin/accounts/player/", "/staff/rake/", "/staff/dashboard/"]


def logged_in(player) -> Client:
    """The login form, as a browser posts it (a fresh session, no second factor yet)."""
    client = Client()
    client.post(reverse("login"), {"username": player.username, "password": PASSWORD})
    return client


@pytest.mark.parametrize("path", STAFF_PAGES)
def test_a_staff_password_alone_reaches_no_staff_page_only_the_set_up(path):
    client = logged_in(StaffFactory())
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("two_factor_setup"))


def test_staff_set_up_the_app_from_its_qr_code_and_then_reach_the_admin():
    staff = StaffFactory()
    client = logged_in(staff)
    page = client.get(reverse("two_factor_setup") + "?next=/admin/")
    assert b"<svg" in page.content and page.context["setup"].secret
    device = TOTPDevice.objects.get(user=staff, confirmed=False)
    wrong = client.post(reverse("two_factor_setup"), {"token": "000000", "next": "/admin/"})
    assert b"does not match" in wrong.content
    done = client.post(
        reverse("two_factor_setup"), {"token": current_code(device), "next": "/admin/"}
    )
    assert len(done.context["codes"]) == 10
    assert client.get("/admin/").status_code == 200


def test_staff_with_an_app_give_its_code_at_each_login():
    staff = StaffFactory()
    device = authenticator_for(staff)
    client = logged_in(staff)
    response = client.get("/staff/rake/")
    assert response["Location"].startswith(reverse("two_factor_verify"))
    refused = client.post(reverse("two_factor_verify"), {"token": "123", "next": "/staff/rake/"})
    assert b"does not match" in refused.content
    assert client.get("/staff/rake/").status_code == 302
    device.refresh_from_db()
    device.throttle_reset()  # a miss holds the next try off a second (django-otp throttling)
    given = client.post(
        reverse("two_factor_verify"), {"token": current_code(device), "next": "/staff/rake/"}
    )
    assert given["Location"] == "/staff/rake/"
    assert client.get("/staff/rake/").status_code == 200


def test_a_recovery_code_logs_in_once():
    staff = StaffFactory()
    client = logged_in(staff)
    client.get(reverse("two_factor_setup"))
    device = TOTPDevice.objects.get(user=staff, confirmed=False)
    codes = client.post(reverse("two_factor_setup"), {"token": current_code(device)}).context[
        "codes"
    ]
    again = logged_in(staff)
    again.post(reverse("two_factor_verify"), {"token": codes[0]})
    assert again.get("/admin/").status_code == 200
    third = logged_in(staff)
    third.post(reverse("two_factor_verify"), {"token": codes[0]})
    assert third.get("/admin/").status_code == 302


def test_a_staff_account_cannot_turn_two_factor_off():
    staff = StaffFactory()
    authenticator_for(staff)
    client = logged_in(staff)
    device = TOTPDevice.objects.get(user=staff)
    client.post(reverse("two_factor_verify"), {"token": current_code(device)})
    client.post(reverse("two_factor_off"))
    assert TOTPDevice.objects.filter(user=staff).exists()


def test_players_play_without_it_and_once_on_give_a_code_at_login():
    player = PlayerFactory()
    client = logged_in(player)
    assert client.get(reverse("account")).status_code == 200
    client.get(reverse("two_factor_setup"))
    device = TOTPDevice.objects.get(user=player)
    client.post(reverse("two_factor_setup"), {"token": current_code(device)})
    assert client.get(reverse("account")).status_code == 200  # this login gave it
    later = logged_in(player)
    assert later.get(reverse("account"))["Location"].startswith(reverse("two_factor_verify"))
    assert later.get("/api/me/").status_code == 403
    later.post(reverse("two_factor_off"))  # the gate lets no one turn it off unverified
    assert TOTPDevice.objects.filter(user=player).exists()


def test_the_demo_staff_login_works_from_what_load_demo_prints(capsys):
    call_command("load_demo")
    printed = capsys.readouterr().out
    assert "recovery code demorecovery1" in printed and "otpauth://totp/" in printed
    call_command("demo_otp_code")
    code = capsys.readouterr().out.strip()
    client = Client()
    client.post(reverse("login"), {"username": "staff", "password": "staff-demo-pass"})
    client.post(reverse("two_factor_verify"), {"token": code, "next": "/admin/"})
    assert client.get("/admin/").status_code == 200
