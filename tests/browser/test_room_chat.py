"""Issue #14: the table chat shows when each line was said, wraps a long word inside the
panel, shows the last messages again after a reload, and lets a player mute another: the
mute is kept on the account, so it holds on another device, and the settings page undoes it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import steps
from tests.factories import PlayerFactory
from tests.table_factories import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_WORD = "w" * 150


def say(page, text: str) -> None:
    page.locator("[data-chat-form] input[name=text]").fill(text)
    page.locator("[data-chat-form] button[type=submit]").click()


def test_chat_has_times_wraps_survives_a_reload_and_can_be_muted(new_context):
    table = make_table(name="Chatty")
    PlayerFactory(username="ann")
    PlayerFactory(username="ben")
    ann, ben = new_context().new_page(), new_context().new_page()
    for page, name in ((ann, "ann"), (ben, "ben")):
        steps.log_in(page, name)
        steps.open_table(page, table.pk)

    say(ben, f"hello {LONG_WORD}")
    line = ann.locator(".chat li", has_text="hello")
    line.wait_for()
    assert line.locator("time").count() == 1
    assert line.locator("time").get_attribute("datetime")
    chat_width = ann.locator(".chat").evaluate("el => el.clientWidth")
    assert line.evaluate("el => el.scrollWidth") <= chat_width  # the long word wraps
    assert ann.locator(".chat").evaluate("el => el.scrollWidth <= el.clientWidth")

    ann.reload()
    ann.locator(".chat li", has_text="hello").wait_for()  # kept by the room

    ann.locator(".chat li", has_text="hello").get_by_role("button", name="Mute ben").click()
    expect(ann.locator(".chat li", has_text="hello")).to_be_hidden()
    ann.locator(".chat li.chat-muted", has_text="You muted ben").wait_for()
    say(ben, "can you hear me")
    ben.locator(".chat li", has_text="can you hear me").wait_for()
    ann.locator(".chat li", has_text="can you hear me").wait_for(state="attached")
    expect(ann.locator(".chat li", has_text="can you hear me")).to_be_hidden()

    ann.reload()  # the mute lasts
    ann.locator(".chat li", has_text="can you hear me").wait_for(state="attached")
    expect(ann.locator(".chat li", has_text="can you hear me")).to_be_hidden()
    say(ann, "still here")
    ben.locator(".chat li", has_text="still here").wait_for()

    # Another device (a browser with nothing of this one's): ben is still muted there.
    phone = new_context(390, 844).new_page()
    steps.log_in(phone, "ann")
    steps.open_table(phone, table.pk)
    phone.locator(".chat li", has_text="can you hear me").wait_for(state="attached")
    expect(phone.locator(".chat li", has_text="can you hear me")).to_be_hidden()

    # The settings page lists ben; Unmute shows his chat again at the table.
    phone.goto("/accounts/settings/")
    phone.get_by_role("button", name="Unmute ben").click()
    expect(phone.get_by_text("Their chat shows again.")).to_be_visible()
    expect(phone.get_by_role("button", name="Unmute ben")).to_have_count(0)
    ann.reload()
    expect(ann.locator(".chat li", has_text="can you hear me")).to_be_visible()
