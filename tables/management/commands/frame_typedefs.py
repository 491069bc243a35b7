"""Write the browser's JSDoc types of the table frames (tables/realtime/typedefs.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from tables.realtime.typedefs import TYPEDEFS_PATH, typedefs_text


class Command(BaseCommand):
    help = "Write static/js/table/frames.js from the declared frames (tables/realtime/frames.py)."

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(settings.BASE_DIR) / TYPEDEFS_PATH
        path.write_text(typedefs_text())
        self.stdout.write(f"wrote {path}")
