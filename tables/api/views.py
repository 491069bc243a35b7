"""The REST API (Django REST framework): lobby tables, a table and its seats, my account and
ledger, my hands and their histories, and the staff-only rake report.

Thin views: reads come from the selectors (a player's hands only through
tables.history_selectors, which returns nothing of hands they were not dealt into).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import django_filters
from django.db.models import Count, QuerySet
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import LedgerEntry, LedgerKind
from accounts.selectors import player_ledger
from tables.api import serializers as s
from tables.history_selectors import (
    PlayedHand,
    hand_json,
    hand_summary,
    hand_text,
    played_hand,
    played_hands,
)
from tables.models import Table
from tables.rake_report import rake_report
from tables.selectors import seats_public


class PlainTextRenderer(BaseRenderer):
    media_type = "text/plain"
    format = "txt"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None
    ) -> Any:
        if isinstance(data, dict) and "text" in data:
            return str(data["text"]).encode(self.charset)
        return str(data).encode(self.charset)


def _tables() -> QuerySet[Table]:
    return Table.objects.annotate(
        seated=Count("seat_set", distinct=True), waiting=Count("waiting_list", distinct=True)
    ).order_by("small_bet", "name", "id")


class LobbyTableFilter(django_filters.FilterSet):
    game = django_filters.ChoiceFilter(choices=[("stud", "stud"), ("stud8", "stud8")])
    small_bet = django_filters.NumberFilter()

    class Meta:
        model = Table
        fields = ["game", "small_bet"]


class LobbyTableList(generics.ListAPIView):
    """Open tables, with how many are seated and waiting. Stakes in cents."""

    serializer_class = s.LobbyTableSerializer
    filterset_class = LobbyTableFilter

    def get_queryset(self) -> QuerySet[Table]:
        return _tables().filter(is_open=True)


class TableDetail(generics.RetrieveAPIView):
    """A table and its seats (stacks are live during a hand; no cards here)."""

    serializer_class = s.TableDetailSerializer
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[Table]:
        return _tables()

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
        if "pk" in self.kwargs:
            context["seats"] = seats_public(int(self.kwargs["pk"]))
        return context


class AccountView(APIView):
    """My account: balance (cents) and settings."""

    @extend_schema(responses=s.AccountSerializer)
    def get(self, request: Request) -> Response:
        return Response(s.AccountSerializer(request.user).data)


class UtcDateTimeFilter(django_filters.IsoDateTimeFilter):
    """An ISO 8601 moment compared in UTC: ISO allows offsets PostgreSQL refuses (-18:33),
    and a filter must answer them, not fail with a database error."""

    def filter(self, qs: Any, value: Any) -> Any:
        if value is not None and value.tzinfo is not None:
            try:
                value = value.astimezone(UTC)
            except OverflowError:  # beyond year 1 or 9999 once in UTC: the end of time
                value = (datetime.max if value.year > 1 else datetime.min).replace(tzinfo=UTC)
        return super().filter(qs, value)


class LedgerFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(choices=LedgerKind.choices)
    created_after = UtcDateTimeFilter(field_name="created_at", lookup_expr="gte")
    created_before = UtcDateTimeFilter(field_name="created_at", lookup_expr="lt")

    class Meta:
        model = LedgerEntry
        fields = ["kind"]


class LedgerList(generics.ListAPIView):
    """My ledger, newest first: every movement of my money, signed cents."""

    serializer_class = s.LedgerEntrySerializer
    filterset_class = LedgerFilter

    def get_queryset(self) -> QuerySet[LedgerEntry]:
        if getattr(self, "swagger_fake_view", False):
            return LedgerEntry.objects.none()
        return player_ledger(player_id=self.request.user.pk)


def _played_or_404(request: Request, hand_id: int) -> PlayedHand:
    played = played_hand(hand_id=hand_id, player_id=request.user.pk)
    if played is None:
        raise Http404
    return played


class HandList(generics.ListAPIView):
    """My finished hands, newest first; filter by table, New York days, won or lost."""

    serializer_class = s.HandSummarySerializer
    filter_backends: list[Any] = []

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return []
        query = s.HandFilterSerializer(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        hands = played_hands(
            player_id=self.request.user.pk,
            table_id=data.get("table"),
            first_day=data.get("first_day"),
            last_day=data.get("last_day"),
            outcome=data.get("outcome"),
        )
        return [hand_summary(played) for played in hands]

    @extend_schema(parameters=[s.HandFilterSerializer])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class HandDetail(APIView):
    """One of my hands as JSON: my down cards, others' only where shown (R-HIST-2), the
    events I could see, and the deck commitment with what I may check it with: its 52 leaves
    and the card and salt of each card I saw (DESIGN "Fairness")."""

    @extend_schema(responses=s.HandHistorySerializer)
    def get(self, request: Request, hand_id: int) -> Response:
        played = _played_or_404(request, hand_id)
        return Response(s.HandHistorySerializer(hand_json(played)).data)


class HandText(APIView):
    """One of my hands in PokerStars text (R-HIST-3): JSON `{"id", "text"}`, or the bare
    text with `Accept: text/plain` or `?format=txt`."""

    renderer_classes = [JSONRenderer, PlainTextRenderer]

    @extend_schema(
        responses={
            (200, "application/json"): s.HandTextSerializer,
            (200, "text/plain"): OpenApiTypes.STR,
        },
        parameters=[
            OpenApiParameter("format", str, enum=["json", "txt"], required=False),
        ],
    )
    def get(self, request: Request, hand_id: int, format: str | None = None) -> Response:
        played = _played_or_404(request, hand_id)
        return Response({"id": played.hand.pk, "text": hand_text(played)})


class RakeReportView(APIView):
    """Staff only: rake taken in New York days, grouped by day, table, stakes or schedule."""

    permission_classes = [permissions.IsAdminUser]

    @extend_schema(parameters=[s.RakeQuerySerializer], responses=s.RakeReportSerializer)
    def get(self, request: Request) -> Response:
        query = s.RakeQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        report = rake_report(**query.validated_data)
        return Response(
            s.RakeReportSerializer(
                {
                    "first_day": report.first_day,
                    "last_day": report.last_day,
                    "group_by": report.group_by,
                    "rows": report.rows,
                    "hands": report.hands,
                    "rake": report.rake,
                }
            ).data
        )
