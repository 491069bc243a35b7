"""schemathesis against the OpenAPI schema: generated requests to every operation, as a
player with a finished hand and as staff, never get a server error."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error

from tests.factories import StaffFactory
from tests.history_hands import hold_scheduling, three_handed_hand


@pytest.fixture
def api_schema(db, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The schema served by the WSGI app, which runs in the test's transaction: as Django's
    test client does, requests must not close the test's database connection."""
    hold_scheduling(monkeypatch)
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def tokens(db, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    hold_scheduling(monkeypatch)
    played = three_handed_hand()
    player = played.players[1]
    staff = StaffFactory()
    return {
        "player": Token.objects.get_or_create(user=player)[0].key,
        "staff": Token.objects.get_or_create(user=staff)[0].key,
    }


def operations(schema: Any) -> list[Any]:
    found = [result.ok() for result in schema.get_all_operations()]
    assert found, "the schema names no operation"
    return found


@pytest.mark.django_db
def test_api_never_answers_with_a_server_error(api_schema, tokens):
    """Each operation: generated path, query and body, as anonymous, player and staff.
    (schemathesis' own pytest plugin does not run under pytest 9, so the strategies are
    driven with Hypothesis directly.)"""
    headers = [{}] + [{"Authorization": f"Token {token}"} for token in tokens.values()]
    for operation in operations(api_schema):

        @given(case=operation.as_strategy())
        @settings(
            max_examples=25,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def no_server_error(case: Any) -> None:
            for extra in headers:
                response = case.call(headers=extra)
                case.validate_response(response, checks=[not_a_server_error])

        no_server_error()
