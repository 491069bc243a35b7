"""The room's settings for the Daphne the browser tests start: the room's own, plus one
password hasher, so players the tests create with tests/conftest.py's fast MD5 hashing can
log in through the real login form. New passwords (sign-up) still use Django's default.

And the clock sweep's test hold (tables/services/scheduling.py `sweep_hold`): the file the
harness (tests/browser/conftest.py, `sweep_hold`) writes the held tables to. Only this module
names it; the room's own settings never do."""

import os

from django.conf import global_settings

from pokerroom.settings import *  # noqa: F403

PASSWORD_HASHERS = [
    *global_settings.PASSWORD_HASHERS,
    "django.contrib.auth.hashers.MD5PasswordHasher",
]

# None for a server started without the harness's hold (the tournament test's own Daphne).
CLOCK_SWEEP_TEST_HOLD_FILE = os.environ.get("BROWSER_TESTS_SWEEP_HOLD_FILE")

# The stacked decks a browser test writes (tests/browser/stacked_decks.py): the next hands the
# server deals. None for a server started without the harness's file.
BROWSER_TESTS_DECKS_FILE = os.environ.get("BROWSER_TESTS_DECKS_FILE")
if BROWSER_TESTS_DECKS_FILE:
    INSTALLED_APPS = [*INSTALLED_APPS, "tests.browser.stacked_decks.StackedDecksConfig"]  # noqa: F405
