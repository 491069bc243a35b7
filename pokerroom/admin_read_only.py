"""The admin's read-only pages: records the room writes (hands, rake, the ledger) that staff
read and never edit by hand."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


class ReadOnlyAdminMixin:
    """No add, change or delete in the admin, for a ModelAdmin or an inline."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
