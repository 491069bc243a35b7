"""The room reports its own health (issue #16): `/healthz`, `/readyz` and `/metrics`.

- `/healthz`: the process is up and answers HTTP. No database, no Redis: a supervisor or a
  load balancer restarts or drops a process that does not answer it.
- `/readyz`: the process can serve: the database answers, every migration this code knows is
  applied, and Redis answers (only when REDIS_URL is set). 200 with each check "ok", or 503
  naming the check that failed and the kind of error (its text, which may name hosts, is
  logged); a load balancer sends players only to a ready process.
- `/metrics`: the Prometheus exposition (pokerroom/metrics.py), on when METRICS_ENABLED (404
  when off), behind `Authorization: Bearer <METRICS_TOKEN>` when a token is set (403
  without it).

None of them needs a login, a session or a CSRF token; they write nothing, so django-axes'
lockout (which acts only on logins) never touches them, and they are exempt from the HTTPS
redirect (settings.SECURE_REDIRECT_EXEMPT) so a probe over plain HTTP on the host gets its
answer. docs/operations.md says how the run files and Prometheus use them.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterator
from datetime import datetime

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from pokerroom import metrics as metrics_module
from pokerroom.service_checks import NotReady, database_probe, redis_probe
from tables.models import PRESENCE_STALE, Hand, Seat, Table

logger = logging.getLogger(__name__)


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """The process is up."""
    return JsonResponse({"status": "ok"})


@never_cache
@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    """The database, the migrations and (with REDIS_URL) Redis: 200 when all are "ok", else
    503 with the failing check's reason."""
    checks: dict[str, str] = {}
    checks["database"] = _check("database", database_probe)
    migrations_known = checks["database"] == "ok"
    checks["migrations"] = _check("migrations", _migrations) if migrations_known else "skipped"
    if settings.REDIS_URL:
        checks["redis"] = _check("redis", redis_probe)
    failed = [name for name, value in checks.items() if value != "ok"]
    return JsonResponse(
        {"status": "unavailable" if failed else "ok", "checks": checks, "failed": failed},
        status=503 if failed else 200,
    )


def _check(name: str, probe: Callable[[], None]) -> str:
    """ "ok", or why not. An error's own text (a host name, a port) goes to the log only:
    /readyz may be reachable from outside, and answers with the kind of error."""
    try:
        probe()
    except NotReady as error:
        logger.warning("not ready: %s: %s", name, error)
        return f"failed: {error}"
    except Exception as error:  # any failure is the answer, not a 500
        logger.warning("not ready: %s: %s: %s", name, type(error).__name__, error)
        return f"failed: {type(error).__name__}"
    return "ok"


@functools.cache
def _migration_leaves() -> frozenset[tuple[str, str]]:
    """The last migration of each app, as this code has them (read from disk once)."""
    return frozenset(MigrationLoader(None, ignore_no_migrations=True).graph.leaf_nodes())


def _migrations() -> None:
    # One query (the recorder's own `applied_migrations` first asks whether its table exists).
    recorded = MigrationRecorder.Migration.objects.using(DEFAULT_DB_ALIAS)
    try:
        applied = set(recorded.values_list("app", "name"))
    except DatabaseError:  # the database answers (checked first) but was never migrated
        applied = set()
    missing = sorted(_migration_leaves() - applied)
    if missing:
        names = ", ".join(f"{app}.{name}" for app, name in missing)
        raise NotReady(f"not applied: {names}")


# --- /metrics -----------------------------------------------------------------------------------


class RoomCollector(Collector):
    """The room as it stands, read from the database at each scrape: right whichever process
    served the players, and nothing for a process to keep up to date."""

    def collect(self) -> Iterator[Metric]:
        now = timezone.now()
        try:
            figures = _room_figures(now)
        except DatabaseError as error:  # the counters still go out; /readyz says why
            logger.warning("metrics: the room's figures could not be read: %s", error)
            return
        for name, documentation, value in figures:
            yield GaugeMetricFamily(name, documentation, value=value)


def _room_figures(now: datetime) -> list[tuple[str, str, int]]:
    recent = now - PRESENCE_STALE
    seats = Seat.objects.all()
    connected = seats.filter(connected=True).exclude(last_seen__lte=recent)
    return [
        ("pokerroom_open_tables", "Tables open.", Table.objects.filter(is_open=True).count()),
        (
            "pokerroom_players_seated",
            "Players with a seat at a table.",
            seats.values("player").distinct().count(),
        ),
        (
            "pokerroom_players_connected",
            "Seated players with a live connection to their table (R-TIME-3's presence).",
            connected.values("player").distinct().count(),
        ),
        (
            "pokerroom_hands_in_play",
            "Hands dealt and not yet ended.",
            Hand.objects.filter(ended_at__isnull=True).count(),
        ),
    ]


def _allowed(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    if not token:
        return True
    return constant_time_compare(request.headers.get("Authorization", ""), f"Bearer {token}")


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """The Prometheus exposition: the processes' counters (added up over every process in
    multiprocess mode) and the room's gauges."""
    if not settings.METRICS_ENABLED:
        raise Http404("metrics are off")
    if not _allowed(request):
        return HttpResponse("a metrics token is required\n", status=403, content_type="text/plain")
    room = CollectorRegistry(auto_describe=False)
    room.register(RoomCollector())
    if metrics_module.MULTIPROCESS_DIR:
        processes = CollectorRegistry()
        MultiProcessCollector(processes, path=metrics_module.MULTIPROCESS_DIR)
        body = generate_latest(processes)
    else:
        body = generate_latest(REGISTRY)
    return HttpResponse(body + generate_latest(room), content_type=CONTENT_TYPE_LATEST)
