"""Issue #26 item 4: the settings page lists the player's sessions (device, address, last
seen, which is this one) and "Log out everywhere else" ends every other one, keeping this."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import sessions
from accounts.devices import device_label
from accounts.models import PlayerSession
from accounts.templatetags.room_time import room_time
from tests.factories import PASSWORD, PlayerFactory

pytestmark = pytest.mark.django_db

PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile Safari"
LAPTOP = "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0"


def _logged_in(username: str, user_agent: str, address: str) -> Client:
    client = Client(HTTP_USER_AGENT=user_agent, REMOTE_ADDR=address)
    response = client.post(reverse("login"), {"username": username, "password": PASSWORD})
    assert response.status_code == 302
    return client


def test_issue_26_settings_lists_each_login_with_device_address_and_this_session():
    PlayerFactory(username="gina")
    phone = _logged_in("gina", PHONE, "203.0.113.7")
    _logged_in("gina", LAPTOP, "198.51.100.2")

    page = phone.get(reverse("settings")).content.decode()

    assert PHONE in page and "203.0.113.7" in page
    assert LAPTOP in page and "198.51.100.2" in page
    assert page.count("(this session)") == 1
    this_item = page[: page.index("(this session)")].rsplit("<li>", 1)[-1]
    assert PHONE in this_item and LAPTOP not in this_item


def test_issue_26_log_out_everywhere_else_ends_the_other_login_and_keeps_this_one():
    PlayerFactory(username="hugo")
    other_player = PlayerFactory(username="iris")
    phone = _logged_in("hugo", PHONE, "203.0.113.7")
    laptop = _logged_in("hugo", LAPTOP, "198.51.100.2")
    irises = _logged_in("iris", LAPTOP, "192.0.2.9")
    assert phone.get(reverse("account")).status_code == 200

    response = laptop.post(reverse("sessions_end_others"), follow=True)

    assert "Logged out everywhere else (1 other session ended)." in response.content.decode()
    assert phone.get(reverse("account")).url.startswith(reverse("login"))  # logged out
    assert laptop.get(reverse("account")).status_code == 200  # the clicking session stays
    assert irises.get(reverse("account")).status_code == 200  # another player's untouched
    page = laptop.get(reverse("settings")).content.decode()
    assert PHONE not in page
    assert PlayerSession.objects.filter(player=other_player).count() == 1


def test_issue_26_logging_out_removes_the_session_from_the_list():
    PlayerFactory(username="jack")
    phone = _logged_in("jack", PHONE, "203.0.113.7")
    laptop = _logged_in("jack", LAPTOP, "198.51.100.2")

    phone.post(reverse("logout"))

    assert PHONE not in laptop.get(reverse("settings")).content.decode()


def test_issue_26_last_seen_moves_with_the_session_requests(monkeypatch):
    PlayerFactory(username="kate")
    login_time = timezone.now().replace(hour=9, minute=0)
    monkeypatch.setattr(sessions, "_now", lambda: login_time)
    phone = _logged_in("kate", PHONE, "203.0.113.7")
    laptop = _logged_in("kate", LAPTOP, "198.51.100.2")

    later = login_time + timedelta(minutes=30)
    monkeypatch.setattr(sessions, "_now", lambda: later)
    phone.get(reverse("account"))  # the phone is used; the laptop is not

    page = laptop.get(reverse("settings")).content.decode()
    phone_item = page[: page.index(PHONE)].rsplit("<li>", 1)[-1] + page[page.index(PHONE) :]
    assert (
        f"{room_time(later):%Y-%m-%d %H:%M} New York time</time>" in phone_item.split("</li>", 1)[0]
    )


def test_issue_26_a_session_from_before_logins_were_recorded_is_listed_and_can_be_ended():
    PlayerFactory(username="liam")
    old = _logged_in("liam", PHONE, "203.0.113.7")
    PlayerSession.objects.all().delete()  # as if logged in before this was deployed
    session = old.session
    session.pop(sessions.SEEN_KEY)
    session.save()
    old.get(reverse("account"))  # its next request records it
    laptop = _logged_in("liam", LAPTOP, "198.51.100.2")

    assert PHONE in laptop.get(reverse("settings")).content.decode()
    laptop.post(reverse("sessions_end_others"))
    assert old.get(reverse("account")).url.startswith(reverse("login"))


@pytest.mark.parametrize(
    ("user_agent", "label"),
    [
        (PHONE, "Mobile Safari on iOS (iPhone)"),
        (LAPTOP, "Firefox 130 on Linux"),
        (
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/130.0 Mobile Safari/537.36",
            "Chrome 130 on Android (Pixel 8)",
        ),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like "
            "Gecko) Version/17.1 Safari/605.1.15",
            "Safari 17 on Mac OS X",
        ),
        ("", "Unknown device"),
        ("???", "Unknown device"),
    ],
)
def test_issue_26_a_login_is_named_by_its_browser_and_system(user_agent: str, label: str):
    assert device_label(user_agent) == label


def test_issue_26_the_sessions_list_names_browsers_not_user_agent_strings():
    PlayerFactory(username="mira")
    _logged_in("mira", PHONE, "203.0.113.7")
    laptop = _logged_in("mira", LAPTOP, "198.51.100.2")

    page = laptop.get(reverse("settings")).content.decode()

    listed = page[page.index('data-testid="sessions"') :].split("</ul>", 1)[0]
    assert "Mobile Safari on iOS (iPhone)</span>" in listed
    assert "Firefox 130 on Linux</span>" in listed
    assert f'title="{LAPTOP}"' in listed  # the whole string, on hover
