"""Infrastructure tasks: a ping that records when it ran (proves task timing in both modes)."""

import time

from celery import shared_task
from django.core.cache import cache


@shared_task(name="pokerroom.tasks.record_ping")
def record_ping(token: str) -> float:
    ran_at = time.time()
    cache.set(f"ping:{token}", ran_at, timeout=300)
    return ran_at
