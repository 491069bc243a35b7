"""Settings of room processes started by tests: the room's own, plus
- the Celery queue of the test (ROOM_TEST_QUEUE), so a worker of another run never takes its
  tasks;
- the MD5 hasher as a fallback, so players made with tests/conftest.py's fast hashing can log
  in over HTTP."""

import os

from django.conf import global_settings

from pokerroom.settings import *  # noqa: F403

CELERY_TASK_DEFAULT_QUEUE = os.environ.get("ROOM_TEST_QUEUE", "celery")
PASSWORD_HASHERS = [
    *global_settings.PASSWORD_HASHERS,
    "django.contrib.auth.hashers.MD5PasswordHasher",
]
