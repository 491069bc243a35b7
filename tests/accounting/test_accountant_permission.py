"""Issue #22: the room's accounts (the staff dashboard, the rake report, the monthly statement
and the rake API) are for accountants: staff with the `accounts.read_accounts` permission.
Any other staff account is refused (403), whatever else it may do."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client

from accounts.models import Player
from tables.services.demo import STAFF_USERNAME, demo_room_load
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


@pytest.mark.parametrize("path", ACCOUNTS_PAGES)
def test_staff_put_in_the_accountants_group_read_the_accounts(path):
    """The migration's "Accountants" group holds the permission: putting a staff member in
    it (Admin -> Groups, or the player's Permissions) is how a room makes an accountant."""
    staff = PlayerFactory(is_staff=True)
    staff.groups.add(Group.objects.get(name="Accountants"))
    client = Client()
    log_in_staff(client, staff)

    assert client.get(path).status_code == 200


@pytest.mark.parametrize("path", ACCOUNTS_PAGES)
def test_a_superuser_reads_the_accounts_without_the_group(path):
    client = Client()
    log_in_staff(client, PlayerFactory(is_staff=True, is_superuser=True))
    assert client.get(path).status_code == 200


def test_the_demo_staff_still_open_every_page_of_the_accounts():
    """`make run`'s staff login (manage.py load_demo) reads what it read before."""
    demo_room_load()
    client = Client()
    log_in_staff(client, Player.objects.get(username=STAFF_USERNAME))

    assert [client.get(path).status_code for path in ACCOUNTS_PAGES] == [200] * len(ACCOUNTS_PAGES)


@pytest.mark.parametrize(("accountant", "shown"), [(False, False), (True, True)])
def test_the_top_bar_links_the_accounts_only_for_an_accountant(accountant, shown):
    """A staff member without the permission is not shown links that answer 403."""
    page = _staff(accountant=accountant).get("/").content.decode()

    assert ("Rake report</a>" in page) is shown
    assert ("Dashboard</a>" in page) is shown
    assert "Back office</a>" in page
