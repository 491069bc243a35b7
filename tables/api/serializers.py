"""Serializers of the REST API: what each endpoint returns, for the OpenAPI schema too."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from accounts.models import LedgerEntry, Player
from tables.models import Table
from tables.rake_report import GROUP_BY_CHOICES


class LobbyTableSerializer(serializers.ModelSerializer):
    seated = serializers.IntegerField(read_only=True)
    waiting = serializers.IntegerField(read_only=True)

    class Meta:
        model = Table
        fields = [
            "id",
            "name",
            "game",
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
    leaving = serializers.BooleanField()


class TableDetailSerializer(LobbyTableSerializer):
    seat_list = serializers.SerializerMethodField()

    class Meta(LobbyTableSerializer.Meta):
        fields = [*LobbyTableSerializer.Meta.fields, "seat_list"]

    def get_seat_list(self, table: Table) -> list[dict[str, Any]]:
        seats: list[dict[str, Any]] = self.context["seats"]
        return SeatSerializer(seats, many=True).data  # type: ignore[return-value]


class AccountSerializer(serializers.ModelSerializer):
    table_name = serializers.CharField(read_only=True)

    class Meta:
        model = Player
        fields = [
            "id",
            "username",
            "email",
            "display_name",
            "table_name",
            "balance",
            "auto_ante",
            "auto_muck",
            "four_colour_deck",
            "all_in_allowance",
        ]
        read_only_fields = fields


class LedgerEntrySerializer(serializers.ModelSerializer):
    class Meta:
        model = LedgerEntry
        fields = ["id", "kind", "amount", "balance_after", "created_at", "reason", "reference"]
        read_only_fields = fields


class HandFilterSerializer(serializers.Serializer):
    # A table id is a 64-bit key: a larger number is a bad request, not a database error.
    table = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    first_day = serializers.DateField(required=False)
    last_day = serializers.DateField(required=False)
    outcome = serializers.ChoiceField(choices=["won", "lost", "even"], required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        first, last = attrs.get("first_day"), attrs.get("last_day")
        if first and last and last < first:
            raise serializers.ValidationError({"last_day": "The last day comes before the first."})
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


class RakeQuerySerializer(serializers.Serializer):
    first_day = serializers.DateField()
    last_day = serializers.DateField()
    group_by = serializers.ChoiceField(choices=list(GROUP_BY_CHOICES), default="day")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["last_day"] < attrs["first_day"]:
            raise serializers.ValidationError({"last_day": "The last day comes before the first."})
        if (attrs["last_day"] - attrs["first_day"]).days > 3660:
            raise serializers.ValidationError({"last_day": "At most ten years at a time."})
        return attrs


class RakeRowSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    hands = serializers.IntegerField()
    rake = serializers.IntegerField()


class RakeReportSerializer(serializers.Serializer):
    first_day = serializers.DateField()
    last_day = serializers.DateField()
    group_by = serializers.CharField()
    rows = RakeRowSerializer(many=True)
    hands = serializers.IntegerField()
    rake = serializers.IntegerField()
