"""Issue #26 where staff meet it: a staff login with the password alone cannot reach the
admin (it is sent to set up an authenticator app); with the app's code it can."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import steps
from tests.factories import PASSWORD, StaffFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_staff_login_without_a_second_factor_cannot_reach_the_admin(new_context):
    StaffFactory(username="nightboss")
    page = new_context().new_page()
    page.goto("/admin/login/")
    page.locator("input[name=username]").fill("nightboss")
    page.locator("input[name=password]").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(re.compile(r"/accounts/two-factor/setup/"))
    expect(page.get_by_role("heading", name="Set up two-factor login")).to_be_visible()
    expect(page.locator("figure.qr svg")).to_be_visible()
    for path in ("/admin/", "/admin/accounts/ledgerentry/", "/staff/rake/", "/staff/dashboard/"):
        page.goto(path)
        expect(page.get_by_role("heading", name="Set up two-factor login")).to_be_visible()
        assert "Site administration" not in page.content()


def test_with_the_apps_code_the_staff_login_reaches_the_admin(new_context):
    staff = StaffFactory(username="dayboss")
    page = new_context().new_page()
    steps.log_in_staff(page, staff)
    expect(page.get_by_text("Site administration")).to_be_visible()
