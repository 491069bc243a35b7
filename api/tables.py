"""The API of the live tables: the lobby's open tables, a table and its seats."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import Count, QuerySet
from drf_spectacular.utils import extend_schema_field
from rest_framework import generics, serializers

from stud.variant import game_choices
from tables.models import Table
from tables.selectors import seats_public


class RotationSerializer(serializers.Serializer):
    """R-MIX-1: a Triple Stud table's game now, the next hand's, and how many hands remain."""

    hand_in_play = serializers.BooleanField(
        help_text="A hand is being played: current_game is its game (else the next hand's)."
    )
    current_game = serializers.ChoiceField(choices=game_choices())
    next_hand_game = serializers.ChoiceField(choices=game_choices())
    hands_left_in_game = serializers.IntegerField()
    next_game = serializers.ChoiceField(choices=game_choices())


class LobbyTableSerializer(serializers.ModelSerializer):
    seated = serializers.IntegerField(read_only=True)
    waiting = serializers.IntegerField(read_only=True)
    rotation = serializers.SerializerMethodField()

    @extend_schema_field(RotationSerializer(allow_null=True))
    def get_rotation(self, table: Table) -> dict[str, object] | None:
        """Triple Stud (R-MIX-1): where the rotation stands; null on a one-game table."""
        in_play = table.triple_stud and table.hands.filter(ended_at__isnull=True).exists()
        rotation = table.rotation(hand_in_play=in_play)
        return None if rotation is None else rotation.to_json()

    class Meta:
        model = Table
        fields = [
            "id",
            "name",
            "game",
            "triple_stud",
            "rotation",
            "small_bet",
            "big_bet",
            "ante",
            "bring_in",
            "seats",
            "buy_in",
            "action_clock",
            "is_open",
            "seated",
            "waiting",
        ]


class SeatSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    stack = serializers.IntegerField()
    sitting_out = serializers.BooleanField()
    connected = serializers.BooleanField()
    in_hand = serializers.BooleanField()


class TableDetailSerializer(LobbyTableSerializer):
    seat_list = serializers.SerializerMethodField()

    class Meta(LobbyTableSerializer.Meta):
        fields = [*LobbyTableSerializer.Meta.fields, "seat_list"]

    def get_seat_list(self, table: Table) -> list[dict[str, Any]]:
        seats: list[dict[str, Any]] = self.context["seats"]
        return SeatSerializer(seats, many=True).data  # type: ignore[return-value]


def _tables() -> QuerySet[Table]:
    return Table.objects.annotate(
        seated=Count("seat_set", distinct=True), waiting=Count("waiting_list", distinct=True)
    ).order_by("small_bet", "name", "id")


class LobbyTableFilter(django_filters.FilterSet):
    game = django_filters.ChoiceFilter(choices=game_choices())
    small_bet = django_filters.NumberFilter()

    class Meta:
        model = Table
        fields = ["game", "small_bet"]


class LobbyTableList(generics.ListAPIView):
    """Open tables, with how many are seated and waiting. Stakes in cents."""

    serializer_class = LobbyTableSerializer
    filterset_class = LobbyTableFilter

    def get_queryset(self) -> QuerySet[Table]:
        return _tables().filter(is_open=True)


class TableDetail(generics.RetrieveAPIView):
    """A table and its seats (stacks are live during a hand; no cards here)."""

    serializer_class = TableDetailSerializer
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[Table]:
        return _tables()

    def get_serializer_context(self) -> dict[str, Any]:
        context = dict(super().get_serializer_context())
        if "pk" in self.kwargs:
            context["seats"] = seats_public(int(self.kwargs["pk"]))
        return context
