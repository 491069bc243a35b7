"""The API of my account: balance, settings, the wallet ledger and the play-money top-up."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import django_filters
from django.db.models import QuerySet
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.limits import PlayLimitInvalid, play_limit_set, play_limits_view
from accounts.models import LedgerEntry, LedgerKind, Player, PlayLimitKind
from accounts.selectors import player_ledger
from accounts.services import TopUpRefused, wallet_top_up
from api.players import player_id


class AccountSerializer(serializers.ModelSerializer):
    table_name = serializers.CharField(read_only=True)

    class Meta:
        model = Player
        fields = [
            "id",
            "username",
            "email",
            "email_confirmed",
            "display_name",
            "table_name",
            "balance",
            "auto_ante",
            "auto_muck",
            "confirm_free_fold",
            "four_colour_deck",
            "all_in_allowance",
        ]
        read_only_fields = fields


class LedgerEntrySerializer(serializers.ModelSerializer):
    class Meta:
        model = LedgerEntry
        fields = ["id", "kind", "amount", "balance_after", "created_at", "reason", "reference"]
        read_only_fields = fields


class AccountView(APIView):
    """My account: balance (cents) and settings."""

    @extend_schema(responses=AccountSerializer)
    def get(self, request: Request) -> Response:
        return Response(AccountSerializer(request.user).data)


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

    serializer_class = LedgerEntrySerializer
    filterset_class = LedgerFilter

    def get_queryset(self) -> QuerySet[LedgerEntry]:
        if getattr(self, "swagger_fake_view", False):
            return LedgerEntry.objects.none()
        return player_ledger(player_id=player_id(self.request))


class TopUpView(APIView):
    """Play money: top up my wallet, once a New York day while it is below the floor
    (settings PLAY_MONEY_TOP_UP_FLOOR and _AMOUNT). 201 with the ledger line; 409 with the
    reason when the room refuses (a real-money room, enough money, already topped up today)."""

    @extend_schema(
        request=None,
        responses={
            201: LedgerEntrySerializer,
            409: OpenApiResponse(description='Refused: {"detail": why}'),
        },
    )
    def post(self, request: Request) -> Response:
        try:
            entry = wallet_top_up(player_id=player_id(request), now=timezone.now())
        except TopUpRefused as error:
            return Response({"detail": str(error)}, status=status.HTTP_409_CONFLICT)
        return Response(LedgerEntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class PlayLimitSerializer(serializers.Serializer):
    kind = serializers.CharField()
    name = serializers.CharField(source="label", read_only=True)
    amount = serializers.IntegerField(allow_null=True, min_value=0)
    used = serializers.IntegerField(read_only=True, allow_null=True)
    pending = serializers.BooleanField(read_only=True)
    pending_amount = serializers.IntegerField(read_only=True, allow_null=True)
    pending_at = serializers.DateTimeField(read_only=True, allow_null=True)
    resets_at = serializers.DateTimeField(read_only=True, allow_null=True)


class PlayLimitChangeSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=PlayLimitKind.choices)
    amount = serializers.IntegerField(allow_null=True, min_value=0, max_value=10**12)


class PlayLimitsView(APIView):
    """My limits (issue #26): buy-ins and losses a day, week and month (cents), the session
    length (minutes) and the reality check (`reality_check`: every how many minutes the
    table shows the session so far, 5 to 240; shown as 60 when not set, null sets the
    default back). POST one: lower at once; higher or null (none) after 24 hours."""

    @extend_schema(responses=PlayLimitSerializer(many=True))
    def get(self, request: Request) -> Response:
        limits = play_limits_view(player_id=player_id(request))
        return Response(PlayLimitSerializer(limits, many=True).data)

    @extend_schema(
        request=PlayLimitChangeSerializer,
        responses={
            200: PlayLimitSerializer(many=True),
            400: OpenApiResponse(description='Not a limit that can be set: {"amount": [why]}'),
        },
    )
    def post(self, request: Request) -> Response:
        change = PlayLimitChangeSerializer(data=request.data)
        change.is_valid(raise_exception=True)
        try:
            play_limit_set(player_id=player_id(request), **change.validated_data)
        except PlayLimitInvalid as error:
            return Response({"amount": [str(error)]}, status=status.HTTP_400_BAD_REQUEST)
        limits = play_limits_view(player_id=player_id(request))
        return Response(PlayLimitSerializer(limits, many=True).data)
