"""The API of my finished hands: the list, one hand as JSON, and its PokerStars text
(only hands I was dealt into: histories.selectors returns nothing else)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.players import player_id
from histories.selectors import (
    PlayedHand,
    hand_json,
    hand_summary,
    hand_text,
    played_hand,
    played_hands,
)
from pokerroom.room_day import day_range_error


class RevealedCardSerializer(serializers.Serializer):
    """A card the viewer saw, with its salt (DESIGN "Fairness"): its leaf is
    SHA-256 of "{position}:{card_text}:{salt}"."""

    position = serializers.IntegerField(help_text="Its place in the shuffled deck, 0..51.")
    card = serializers.IntegerField()
    card_text = serializers.CharField()
    salt = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True, help_text="None: the community card.")
    index = serializers.IntegerField(help_text="Its place among the seat's cards as dealt.")
    street = serializers.IntegerField()
    face = serializers.CharField(help_text="down, up or community.")


class DealSerializer(serializers.Serializer):
    """The public facts of the deal that give each card its position (docs)."""

    order = serializers.ListField(child=serializers.IntegerField())
    streets = serializers.ListField(child=serializers.JSONField())
    river = serializers.CharField()
    reshuffle_seed = serializers.IntegerField(allow_null=True)


class HandFilterSerializer(serializers.Serializer):
    # A table id is a 64-bit key: a larger number is a bad request, not a database error.
    table = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    first_day = serializers.DateField(required=False)
    last_day = serializers.DateField(required=False)
    outcome = serializers.ChoiceField(choices=["won", "lost", "even"], required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        error = day_range_error(attrs.get("first_day"), attrs.get("last_day"))
        if error:
            raise serializers.ValidationError({"last_day": error})
        return attrs


class HandTableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class HandSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    table = HandTableSerializer()
    game = serializers.CharField()
    small_bet = serializers.IntegerField()
    big_bet = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    seat = serializers.IntegerField()
    net = serializers.IntegerField(help_text="Chips won (positive) or lost, in cents.")
    outcome = serializers.CharField()
    pot = serializers.IntegerField()
    rake = serializers.IntegerField()


class FairnessSerializer(serializers.Serializer):
    """Scheme 2 (card by card): `leaves`, `deal` and `revealed`; scheme 1 (hands dealt
    before it): `deck`, `deck_text` and `salt`. The other scheme's fields are null."""

    scheme = serializers.IntegerField()
    commitment = serializers.CharField()
    deck = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    deck_text = serializers.CharField(allow_null=True)
    salt = serializers.CharField(allow_null=True)
    leaves = serializers.ListField(child=serializers.CharField(), allow_null=True)
    deal = DealSerializer(allow_null=True)
    revealed = RevealedCardSerializer(many=True, allow_null=True)


class HandEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    kind = serializers.CharField()
    payload = serializers.JSONField()
    at = serializers.DateTimeField()


class HandHistorySerializer(HandSummarySerializer):
    ante = serializers.IntegerField()
    bring_in = serializers.IntegerField()
    button = serializers.IntegerField()
    fairness = FairnessSerializer()
    final = serializers.JSONField(help_text="The engine's view of the finished hand for your seat.")
    events = HandEventSerializer(many=True)


class HandTextSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    text = serializers.CharField(help_text="PokerStars hand-history text (R-HIST-3).")


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


def _played_or_404(request: Request, hand_id: int) -> PlayedHand:
    played = played_hand(hand_id=hand_id, player_id=player_id(request))
    if played is None:
        raise Http404
    return played


class HandList(generics.ListAPIView):
    """My finished hands, newest first; filter by table, New York days, won or lost."""

    serializer_class = HandSummarySerializer
    filter_backends: list[Any] = []

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return []
        query = HandFilterSerializer(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        hands = played_hands(
            player_id=player_id(self.request),
            table_id=data.get("table"),
            first_day=data.get("first_day"),
            last_day=data.get("last_day"),
            outcome=data.get("outcome"),
        )
        return [hand_summary(played) for played in hands]

    @extend_schema(parameters=[HandFilterSerializer])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class HandDetail(APIView):
    """One of my hands as JSON: my down cards, others' only where shown (R-HIST-2), the
    events I could see, and the deck commitment with what I may check it with: its 52 leaves
    and the card and salt of each card I saw (DESIGN "Fairness")."""

    @extend_schema(responses=HandHistorySerializer)
    def get(self, request: Request, hand_id: int) -> Response:
        played = _played_or_404(request, hand_id)
        return Response(HandHistorySerializer(hand_json(played)).data)


class HandText(APIView):
    """One of my hands in PokerStars text (R-HIST-3): JSON `{"id", "text"}`, or the bare
    text with `Accept: text/plain` or `?format=txt`."""

    renderer_classes = [JSONRenderer, PlainTextRenderer]

    @extend_schema(
        responses={
            (200, "application/json"): HandTextSerializer,
            (200, "text/plain"): OpenApiTypes.STR,
        },
        parameters=[
            OpenApiParameter("format", str, enum=["json", "txt"], required=False),
        ],
    )
    def get(self, request: Request, hand_id: int, format: str | None = None) -> Response:
        played = _played_or_404(request, hand_id)
        return Response({"id": played.hand.pk, "text": hand_text(played)})
