"""The API of a player's own hand-history files (issue #24 item 5), as the import page has it:
open a PHH file or PokerStars stud, stud hi/lo or razz text (every hand read and checked,
each with its replay, the refused ones with the line that fails; nothing stored), keep its
hands in the account, and list, read or delete the hands kept (only the player's own).

Thin: the same form (``histories.forms.HandImportForm``: 1 MB, a file or pasted text), the
same readers (``histories.imported``) and the same services (``histories.services``) as the
page; every write is the services'."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.players import player, player_id
from histories.forms import HandImportForm
from histories.imported import KeptHand, imported_file, imported_hand, imported_hands
from histories.services import imported_hand_delete, imported_hands_keep
from stud.read_hand import HistoryRefused


class ImportRequestSerializer(serializers.Serializer):
    """A file (multipart) or its text (JSON or form): one of the two, at most 1,000,000
    bytes and 200 hands."""

    file = serializers.FileField(required=False, help_text="A .txt, .phh or .phhs file.")
    text = serializers.CharField(required=False, trim_whitespace=False)


class ImportedRowSerializer(serializers.Serializer):
    """One hand of the file that reads and adds up."""

    index = serializers.IntegerField(help_text="Its place among the hands that read, from 0.")
    title = serializers.CharField(help_text='"PokerStars Hand #35874004239", "PHH hand 7".')
    first_line = serializers.IntegerField(
        source="read.first_line", help_text="Where it begins in the file, from 1."
    )
    game = serializers.CharField(source="read.hand.config.game.value")
    game_label = serializers.CharField()
    table_name = serializers.CharField(source="read.table_name")
    started_at = serializers.CharField(source="read.started_at", help_text="As the file has it.")
    chips = serializers.BooleanField(
        source="read.chips", help_text="Amounts in chips (a tournament), not cents."
    )
    stakes_text = serializers.CharField()
    players_text = serializers.CharField()
    hero_name = serializers.CharField(allow_null=True)
    hero_net = serializers.IntegerField(allow_null=True)
    winners_text = serializers.CharField()
    replay = serializers.JSONField(
        help_text="The hand for the replayer, as the import page gives it "
        "(the shape of a room hand's replay; down cards only where the file names them)."
    )


class RefusalSerializer(serializers.Serializer):
    """One hand of the file that does not add up."""

    title = serializers.CharField()
    first_line = serializers.IntegerField(help_text="Where the hand begins in the file.")
    message = serializers.CharField(help_text="Names the hand and the line that fails.")


class ImportedFileSerializer(serializers.Serializer):
    format = serializers.ChoiceField(choices=["pokerstars", "phh"])
    format_label = serializers.CharField()
    hands = ImportedRowSerializer(many=True, source="rows")
    refused = RefusalSerializer(many=True)
    other_games = serializers.IntegerField(help_text="Hands of other games, left out.")


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField()


class KeptSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text='"2 hand(s) kept in your account."')
    kept_ids = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Every hand of the text now in the account, in its order.",
    )


class ImportedHandSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    format = serializers.CharField()
    title = serializers.CharField()
    game = serializers.CharField()
    table_name = serializers.CharField()
    started_at = serializers.CharField(help_text="As the file writes it.")
    kept_at = serializers.DateTimeField()


class KeptHandSerializer(ImportedHandSerializer):
    text = serializers.CharField(help_text="The hand's text as the file gave it.")
    hand = ImportedRowSerializer(
        allow_null=True, help_text="The hand read again; null if it no longer reads."
    )
    refusal = serializers.CharField(help_text="Why it no longer reads (else empty).")


def _form_text(request: Request) -> tuple[str | None, Response | None]:
    """The posted file's or text's text, or the 400 the import page would give."""
    if not isinstance(request.data, Mapping):
        return None, Response(
            {"detail": "Send an object: a file or text."}, status=status.HTTP_400_BAD_REQUEST
        )
    form = HandImportForm(request.data, request.FILES)
    if form.is_valid():
        return form.cleaned_data["text"], None
    errors = [str(message) for messages in form.errors.values() for message in messages]
    return None, Response({"detail": " ".join(errors)}, status=status.HTTP_400_BAD_REQUEST)


REFUSED = OpenApiResponse(
    DetailSerializer,
    description="Refused whole, nothing read or kept: no file or text, both, over "
    "1,000,000 bytes, over 200 hands, empty, or neither format.",
)


class ImportOpen(APIView):
    """Open a hand-history file of mine: every hand read and checked, each with its replay,
    and the hands that do not add up with the line that fails. Nothing is stored."""

    @extend_schema(
        request={
            "multipart/form-data": ImportRequestSerializer,
            "application/json": ImportRequestSerializer,
        },
        responses={200: ImportedFileSerializer, 400: REFUSED},
    )
    def post(self, request: Request) -> Response:
        text, refused = _form_text(request)
        if text is None:
            assert refused is not None
            return refused
        try:
            opened = imported_file(text)
        except HistoryRefused as error:
            return Response({"detail": str(error)}, status=status.HTTP_400_BAD_REQUEST)
        return Response(ImportedFileSerializer(opened).data)


class ImportKeep(APIView):
    """Keep in my account every hand of a file (or of one hand's text) that adds up, each
    once (read and checked again); at most 1,000 an account."""

    @extend_schema(
        request={
            "multipart/form-data": ImportRequestSerializer,
            "application/json": ImportRequestSerializer,
        },
        responses={
            201: KeptSerializer,
            400: OpenApiResponse(
                DetailSerializer,
                description="Nothing kept: as for opening, or no hand adds up, or the "
                "account would hold over 1,000.",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        text, refused = _form_text(request)
        if text is None:
            assert refused is not None
            return refused
        result = imported_hands_keep(player=player(request), text=text)
        if not result.ok:
            return Response({"detail": result.message}, status=status.HTTP_400_BAD_REQUEST)
        return Response(
            {"detail": result.message, "kept_ids": list(result.kept_ids)},
            status=status.HTTP_201_CREATED,
        )


class ImportedHandList(generics.ListAPIView):
    """The hands I kept, newest first."""

    serializer_class = ImportedHandSerializer
    filter_backends: list[Any] = []

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return []
        return imported_hands(player_id=player_id(self.request))


def _kept_or_404(request: Request, imported_id: int) -> KeptHand:
    kept = imported_hand(player_id=player_id(request), imported_id=imported_id)
    if kept is None:
        raise Http404("No imported hand of yours with that number.")
    return kept


class ImportedHandDetail(APIView):
    """One hand I kept, read again from its text, with its replay; or delete it."""

    @extend_schema(
        responses={200: KeptHandSerializer, 404: OpenApiResponse(description="Not yours.")}
    )
    def get(self, request: Request, imported_id: int) -> Response:
        kept = _kept_or_404(request, imported_id)
        row = ImportedHandSerializer(kept.kept).data
        row |= {
            "text": kept.kept.source,
            "hand": ImportedRowSerializer(kept.row).data if kept.row else None,
            "refusal": kept.refusal,
        }
        return Response(row)

    @extend_schema(
        responses={204: None, 404: OpenApiResponse(description="Not yours: nothing deleted.")}
    )
    def delete(self, request: Request, imported_id: int) -> Response:
        if not imported_hand_delete(player=player(request), imported_id=imported_id):
            raise Http404("No imported hand of yours with that number.")
        return Response(status=status.HTTP_204_NO_CONTENT)
