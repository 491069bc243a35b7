"""Write the browser's JSDoc types of the protocol (tables/realtime/typedefs.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from tables.realtime.typedefs import typedef_files


class Command(BaseCommand):
    help = (
        "Write the JSDoc types generated from the declared frames and commands: "
        "static/js/table/frames.js, static/js/table/commands.js, static/js/tournament/frames.js."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        for relative, text in typedef_files().items():
            path = Path(settings.BASE_DIR) / relative
            path.write_text(text())
            self.stdout.write(f"wrote {path}")
