"""Settings come from the environment; with DEBUG off the production safeguards are on."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_deploy_check_reports_nothing_with_debug_off():
    checked = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="room.example.com",
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "no issues" in checked.stdout


def test_debug_off_without_a_secret_key_refuses_to_start():
    checked = _manage("check", DEBUG="0", ALLOWED_HOSTS="room.example.com")
    assert checked.returncode != 0
    assert "SECRET_KEY" in checked.stderr


def test_production_safeguards_are_on_with_debug_off():
    shown = _manage(
        "shell",
        "-c",
        "from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE, "
        "s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS > 0, s.TIME_ZONE)",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="room.example.com",
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.split()[-4:] == ["True", "True", "True", "UTC"]


def test_the_urls_load_with_debug_off_before_static_files_are_collected(tmp_path):
    """A Celery worker imports the URLs with DEBUG off; no static file may be looked up then."""
    loaded = _manage(
        "shell",
        "-c",
        "import pokerroom.urls; print('urls loaded')",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="room.example.com",
        STATIC_ROOT=str(tmp_path),  # nothing collected there
    )
    assert loaded.returncode == 0, loaded.stderr
    assert "urls loaded" in loaded.stdout


def _policy_shown(**env: str) -> list[str]:
    shown = _manage(
        "shell",
        "-c",
        "from django.conf import settings as s; "
        "print('csp.middleware.CSPMiddleware' in s.MIDDLEWARE, "
        "getattr(s, 'CONTENT_SECURITY_POLICY', {}).get('DIRECTIVES', {}).get('script-src'))",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="room.example.com",
        **env,
    )
    assert shown.returncode == 0, shown.stderr
    return shown.stdout.split()[-2:]


def test_the_content_security_policy_is_on_with_debug_off():
    """Issue #11: no inline script in production; the browser suite proves the pages pass."""
    assert _policy_shown(DEBUG="0") == ["True", "[\"'self'\"]"]
    assert _policy_shown(DEBUG="1") == ["False", "None"]
    assert _policy_shown(DEBUG="1", CSP_ENABLED="1") == ["True", "[\"'self'\"]"]
