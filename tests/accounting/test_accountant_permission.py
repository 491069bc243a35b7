"""Issue #22: the room's accounts (the staff dashboard, the rake report, the monthly statement
and the rake API) are for accountants: staff with the `accounts.read_accounts` permission.
Any other staff account is refused (403), whatever else it may do."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from tests.factories import PlayerFactory, log_in_staff

pytestmark = pytest.mark.django_db

ACCOUNTS_PAGES = (
    "/staff/dashboard/",
    "/staff/dashboard/data/",
    "/staff/rake/",
    "/staff/rake/statement/",
    "/api/rake/report/?first_day=2026-01-01&last_day=2026-01-31",
)


def _staff(*, accountant: bool) -> Client:
    staff = PlayerFactory(is_staff=True)  # a floor manager: staff, not a superuser
    staff.user_permissions.add(Permission.objects.get(codename="move_money"))
    if accountant:
        staff.user_permissions.add(Permission.objects.get(codename="read_accounts"))
    client = Client()
    log_in_staff(client, staff)  # with a verified second factor, as every staff login (#26)
    return client


@pytest.mark.parametrize("path", ACCOUNTS_PAGES)
def test_staff_without_the_accountants_permission_are_refused_the_accounts(path):
    assert _staff(accountant=False).get(path).status_code == 403


@pytest.mark.parametrize("path", ACCOUNTS_PAGES)
def test_an_accountant_reads_the_accounts(path):
    assert _staff(accountant=True).get(path).status_code == 200


@pytest.mark.parametrize("path", ACCOUNTS_PAGES)
def test_a_player_is_refused_the_accounts(path):
    client = Client()
    client.force_login(PlayerFactory())
    assert client.get(path).status_code in (302, 403)
