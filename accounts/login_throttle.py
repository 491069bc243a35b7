"""How wrong passwords lock the login (django-axes' handler, settings.AXES_HANDLER).

Two counts, each against its own limit (issue #22, password spraying):

- one username from one address: ``AXES_FAILURE_LIMIT`` wrong passwords (5) lock that account
  from that address, whoever guesses;
- one address, whatever usernames it tries: ``AXES_ADDRESS_FAILURE_LIMIT`` (20) lock the
  address. Larger than the first, because a café, an office or a mobile carrier puts many
  players behind one address, and one of them mistyping must not lock the others out; small
  enough that one wrong password on each of many accounts (spraying) stops after 20.

django-axes compares one count with one limit, so `get_failures` gives the address's count
in the first limit's units (the address locks when either count reaches its own limit).

A right password clears that account's failures from that address and nothing else: axes'
own reset deleted the address's whole count too, so an attacker could log in to an account
of their own after every few guesses and spray on for ever.
"""

from __future__ import annotations

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_failure_limit, get_lockout_parameters
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest

ADDRESS = "ip_address"


def _limit_of(parameter: str | list[str], account_limit: int) -> int:
    """The address alone has its own, larger limit (0 turns it off); any other count has
    axes' own."""
    if parameter == ADDRESS:
        return int(settings.AXES_ADDRESS_FAILURE_LIMIT)
    return account_limit


class RoomLoginThrottle(AxesDatabaseHandler):
    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        """The failures that count toward `AXES_FAILURE_LIMIT`: each lock-out parameter's,
        scaled from its own limit to that one; the largest. (floor(c * base / own) reaches
        base exactly when c reaches own.)"""
        base = get_failure_limit(request, credentials)
        counted = 0
        for parameter, attempts in zip(
            get_lockout_parameters(request, credentials),
            self.get_user_attempts(request, credentials),
            strict=True,
        ):
            limit = _limit_of(parameter, base)
            if limit <= 0:
                continue
            failures = attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            counted = max(counted, failures * base // limit)
        return counted

    def reset_user_attempts(
        self, request: HttpRequest, credentials: dict[str, Any] | None = None
    ) -> int:
        """After a right password: that username's failures from this address only."""
        count, _ = AccessAttempt.objects.filter(
            username=get_client_username(request, credentials),
            ip_address=getattr(request, "axes_ip_address", None),
        ).delete()
        return count
