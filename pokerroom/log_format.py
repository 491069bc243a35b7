"""The room's LOGGING (settings.py): text lines for people, or JSON lines for a log pipeline.

`LOG_FORMAT=text` (the default): `2026-12-01 15:40:02,114 INFO pokerroom.actions: table 3 hand
12 seq 17: player 5 call 50`. `LOG_FORMAT=json`: one JSON object a line, from
python-json-logger (a well-kept formatter; nothing of our own to get wrong with quoting and
exceptions): `time`, `level`, `logger`, `message`, and every field a call passes in `extra=`
(the action log's `table`, `hand`, `seq`, `player`, `action`, `amount`, `outcome`).
"""

from __future__ import annotations

from typing import Any

LOG_FORMATS = ("text", "json")


def logging_config(log_format: str, level: str) -> dict[str, Any]:
    """The dictConfig of the room's logs, in one of LOG_FORMATS."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}, not {log_format!r}")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "text": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
            "json": {
                "()": "pythonjsonlogger.json.JsonFormatter",
                "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
                "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
            },
        },
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": log_format}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "daphne": {"level": "WARNING"},
            "django.channels.server": {"level": "WARNING"},
            "celery.app.trace": {"level": "WARNING"},
            "axes": {"level": "WARNING"},
        },
    }
