"""The API of the tournaments: the list (the lobby's Tournaments tab), a tournament (its
structure, payouts, standings, tables and clock: tournaments.selectors; with the logged-in
player's own entry), and registering, unregistering or buying the add-on for the logged-in
player (tmoney's tournaments.services.entries, the services the web forms call). Money in
cents, chips as integers."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.tables import RotationSerializer
from stud.variant import game_choices
from tournaments import selectors
from tournaments.models import Tournament, TournamentStatus
from tournaments.services import entries
from tournaments.services.refusals import TournamentRefused


class TournamentRowSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    triple_stud = serializers.BooleanField(
        help_text="R-MIX-1: every table rotates Stud, Razz and Stud Hi/Lo (game unused)."
    )
    game_label = serializers.CharField(help_text='"Stud", "Razz", "Triple Stud".')
    status = serializers.ChoiceField(choices=TournamentStatus.choices)
    status_label = serializers.CharField()
    seq = serializers.IntegerField()
    buy_in = serializers.IntegerField(help_text="Cents.")
    fee = serializers.IntegerField(help_text="Cents.")
    starting_chips = serializers.IntegerField()
    entrants = serializers.IntegerField()
    max_players = serializers.IntegerField()
    players_left = serializers.IntegerField(allow_null=True)
    prize_pool = serializers.IntegerField(help_text="Cents: every buy-in and add-on.")
    level = serializers.IntegerField(allow_null=True)
    starts_at = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    start_when_registered = serializers.IntegerField(allow_null=True)
    url = serializers.CharField()


class LevelSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    ante = serializers.IntegerField()
    bring_in = serializers.IntegerField()
    small_bet = serializers.IntegerField()
    big_bet = serializers.IntegerField()
    minutes = serializers.IntegerField()
    dealer_only_ante = serializers.BooleanField()
    equal_deals = serializers.BooleanField()
    break_minutes = serializers.IntegerField()


class PayoutSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    prize = serializers.IntegerField(help_text="Cents.")


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True)
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    chips = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    table_id = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    place = serializers.IntegerField(allow_null=True)
    prize = serializers.IntegerField(help_text="Cents.")
    add_on = serializers.BooleanField()


class TableSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    stack = serializers.IntegerField()


class TournamentTableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    table_id = serializers.IntegerField()
    level = serializers.IntegerField()
    seats = TableSeatSerializer(many=True)
    game = serializers.ChoiceField(
        choices=game_choices(), help_text="The hand in play's game, or the next hand's."
    )
    game_label = serializers.CharField(help_text='"Razz", "now Razz · next hand Stud Hi/Lo".')
    rotation = RotationSerializer(allow_null=True)


class ClockSerializer(serializers.Serializer):
    level = serializers.IntegerField()
    level_ends_at = serializers.DateTimeField(allow_null=True)
    level_ms_left = serializers.IntegerField(allow_null=True)
    break_ends_at = serializers.DateTimeField(allow_null=True)
    break_ms_left = serializers.IntegerField(allow_null=True)
    on_break = serializers.BooleanField()
    paused = serializers.BooleanField()
    level_timer_expired = serializers.BooleanField()
    starts_at = serializers.DateTimeField(allow_null=True)
    starts_ms_left = serializers.IntegerField(allow_null=True)


class ViewerSerializer(serializers.Serializer):
    """The logged-in player's own entry (null for a visitor)."""

    registered = serializers.BooleanField()
    add_on = serializers.BooleanField(help_text="Whether this player bought the add-on (R-TOUR-1).")
    place = serializers.IntegerField(allow_null=True, help_text="Null while still playing.")
    prize = serializers.IntegerField(help_text="Cents.")
    table_id = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)


class TournamentSerializer(TournamentRowSerializer):
    """A tournament's page: the lobby's row (its link and times left out) and the rest."""

    url = None  # type: ignore[assignment]
    starts_at = None  # type: ignore[assignment]
    started_at = None  # type: ignore[assignment]
    players_left = serializers.IntegerField()
    prize_pool = serializers.IntegerField(help_text="Cents.")
    level = LevelSerializer(allow_null=True)  # type: ignore[assignment]
    game_name = serializers.CharField(help_text='"Seven Card Stud", "Triple Stud".')
    add_on_price = serializers.IntegerField(help_text="Cents; 0: no add-on.")
    add_on_chips = serializers.IntegerField()
    add_on_until_level = serializers.IntegerField()
    add_on_open = serializers.BooleanField(
        help_text="R-TOUR-1: on offer now, until the first hand of add_on_until_level is dealt."
    )
    min_players = serializers.IntegerField()
    action_clock = serializers.IntegerField()
    time_bank = serializers.IntegerField()
    add_ons = serializers.IntegerField()
    average_stack = serializers.IntegerField(allow_null=True)
    largest_stack = serializers.IntegerField(allow_null=True)
    payouts = PayoutSerializer(many=True)
    levels = LevelSerializer(many=True)
    next_level = LevelSerializer(allow_null=True)
    clock = ClockSerializer()
    tables = TournamentTableSerializer(many=True)
    standings = StandingSerializer(many=True)
    registration_open = serializers.BooleanField()
    over = serializers.BooleanField()
    viewer = ViewerSerializer(
        allow_null=True, help_text="The logged-in player's entry; null for a visitor."
    )


def _tournament(pk: int) -> Tournament:
    tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is None:
        raise Http404("No such tournament")
    return tournament


class TournamentList(APIView):
    """The tournaments to come and in play, then the latest finished (the lobby's tab)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=TournamentRowSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(TournamentRowSerializer(selectors.lobby_rows(), many=True).data)


def _viewer_id(request: Request) -> int | None:
    user = request.user
    return int(user.pk) if user.is_authenticated else None


def _tournament_answer(request: Request, tournament: Tournament) -> Response:
    snapshot = selectors.tournament_snapshot(tournament, viewer_id=_viewer_id(request))
    return Response(TournamentSerializer(snapshot).data)


class TournamentDetail(APIView):
    """A tournament: structure, prize pool and payouts, standings, tables and the clock;
    whether the add-on is open, and for a logged-in player their own entry (`viewer`)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: TournamentSerializer, 404: OpenApiResponse(description="")})
    def get(self, request: Request, pk: int) -> Response:
        return _tournament_answer(request, _tournament(pk))


def _entry_call(request: Request, pk: int, service: Callable[..., object]) -> Response:
    """One of tmoney's entry services for the logged-in player: 200 with the tournament,
    or 409 with the refusal's words and code (nothing changed)."""
    tournament = _tournament(pk)
    try:
        service(tournament_id=tournament.pk, player=request.user, now=timezone.now())
    except TournamentRefused as refused:
        return Response(
            {"detail": refused.message, "code": str(refused.code)},
            status=status.HTTP_409_CONFLICT,
        )
    tournament.refresh_from_db()
    return _tournament_answer(request, tournament)


ENTRY_RESPONSES = {
    200: TournamentSerializer,
    404: OpenApiResponse(description="No such tournament."),
    409: OpenApiResponse(description='Refused, nothing changed: {"detail": why, "code": ...}'),
}


class TournamentRegister(APIView):
    """Register the logged-in player: the buy-in and fee leave the wallet."""

    @extend_schema(request=None, responses=ENTRY_RESPONSES)
    def post(self, request: Request, pk: int) -> Response:
        return _entry_call(request, pk, entries.tournament_register)


class TournamentUnregister(APIView):
    """Unregister the logged-in player before the start: the buy-in and fee come back."""

    @extend_schema(request=None, responses=ENTRY_RESPONSES)
    def post(self, request: Request, pk: int) -> Response:
        return _entry_call(request, pk, entries.tournament_unregister)


class TournamentAddOn(APIView):
    """Buy the logged-in player's one add-on (R-TOUR-1): its price leaves the wallet and its
    chips go on the player's seat (between hands at once, else when the hand in play ends).
    Refused with 409 and a code, nothing changed: `too_late` (closed: the first hand of
    `add_on_until_level` was dealt), `not_registered`, `already_added_on` (so a second
    click buys nothing), `insufficient_balance`, `no_add_on`, `eliminated`, `all_in`,
    `over`."""

    @extend_schema(request=None, responses=ENTRY_RESPONSES)
    def post(self, request: Request, pk: int) -> Response:
        return _entry_call(request, pk, entries.tournament_add_on)
