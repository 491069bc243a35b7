"""The API of the rake report (staff only)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounting.access import is_accountant
from accounting.report import GROUP_BY_CHOICES, rake_report
from pokerroom.room_day import day_range_error


class RakeQuerySerializer(serializers.Serializer):
    first_day = serializers.DateField()
    last_day = serializers.DateField()
    group_by = serializers.ChoiceField(choices=list(GROUP_BY_CHOICES), default="day")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        error = day_range_error(attrs["first_day"], attrs["last_day"], limited=True)
        if error:
            raise serializers.ValidationError({"last_day": error})
        return attrs


class RakeRowSerializer(serializers.Serializer):
    key = serializers.CharField()
    # The row's label column (the field list replaces Field.label, the stubs' attribute).
    label = serializers.CharField()  # type: ignore[assignment]
    hands_dealt = serializers.IntegerField()
    hands_raked = serializers.IntegerField()
    rake = serializers.IntegerField(help_text="Cents.")
    rake_per_hand = serializers.IntegerField(help_text="Cents per hand dealt.")
    tournament_fees = serializers.IntegerField(help_text="Cents.")
    house_revenue = serializers.IntegerField(help_text="Cents: rake plus tournament fees.")


class RakeReportSerializer(serializers.Serializer):
    first_day = serializers.DateField()
    last_day = serializers.DateField()
    group_by = serializers.CharField()
    rows = RakeRowSerializer(many=True)
    hands_dealt = serializers.IntegerField()
    hands_raked = serializers.IntegerField()
    rake = serializers.IntegerField()
    tournament_fees = serializers.IntegerField()
    house_revenue = serializers.IntegerField()


class IsVerifiedStaff(permissions.IsAdminUser):
    """Staff whose login gave its second factor (issue #26): a session verified by django-otp.
    A token, issued for a password alone, never is."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        is_verified = getattr(request.user, "is_verified", None)
        return super().has_permission(request, view) and bool(is_verified and is_verified())


class IsAccountant(permissions.BasePermission):
    """Staff with the accountants' permission (accounting/access.py)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return is_accountant(request.user)


class RakeReportView(APIView):
    """Accountants only: hands, rake and tournament fees of New York days, grouped by day, table,
    stakes, game or schedule (accounting.report)."""

    permission_classes = [IsVerifiedStaff, IsAccountant]

    @extend_schema(parameters=[RakeQuerySerializer], responses=RakeReportSerializer)
    def get(self, request: Request) -> Response:
        query = RakeQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        report = rake_report(**query.validated_data)
        return Response(
            RakeReportSerializer(
                {
                    "first_day": report.first_day,
                    "last_day": report.last_day,
                    "group_by": report.group_by,
                    "rows": report.rows,
                    "hands_dealt": report.hands_dealt,
                    "hands_raked": report.hands_raked,
                    "rake": report.rake,
                    "tournament_fees": report.tournament_fees,
                    "house_revenue": report.house_revenue,
                }
            ).data
        )
