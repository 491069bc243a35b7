"""Who reads the room's accounts (issue #22): staff with the accountants' permission
(`accounts.read_accounts`, given to the "Accountants" group or to a staff member in the admin),
not every staff account. The dashboard, the rake report, the statement and the rake API ask
this; a superuser has every permission."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

READ_ACCOUNTS = "accounts.read_accounts"


def is_accountant(user: Any) -> bool:
    return bool(
        user is not None
        and user.is_authenticated
        and user.is_active
        and user.is_staff
        and user.has_perm(READ_ACCOUNTS)
    )


def accountant_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Staff log in first (the admin's login page); staff without the permission get 403."""

    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not is_accountant(request.user):
            raise PermissionDenied("The room's accounts are for accountants.")
        return view(request, *args, **kwargs)

    return staff_member_required(checked)
