"""Plays a tournament through the services, one step at a time, for the browser scenario
(tests/browser/test_tournament_play.py): deal where a deal is due (and run the tournament's
task the deal sends: the add-on closed, R-TOUR-1), act for the player to act by their
policy, and run the tournament's between-hands step where a hand has ended. The test holds
every task (scheduling.task_send and task_send_at), so nothing happens unless a step does
it."""

from __future__ import annotations

from collections.abc import Callable

from django.utils import timezone

from accounts.models import Player
from stud import StudHand
from tables import services
from tables.models import Hand, Table
from tests.tournaments.play_helpers import tournament_clock_sweep
from tournaments.models import Tournament, TournamentStatus, TournamentTable
from tournaments.services.entries import add_on_close_announce
from tournaments.services.play import tournament_table_between_hands

# A policy names what a player does from the offers: "press" (complete, bet or raise the
# most, else call) or "timid" (check, else the forced bring-in, else fold).
Policy = Callable[[int], str]
PREFERENCES = {
    "press": ("raise", "bet", "complete", "call", "check", "bring_in", "fold"),
    "timid": ("check", "bring_in", "fold", "call"),
}


def _act(table: Table, hand: Hand, policy: Policy) -> None:
    engine = StudHand.from_json(hand.state)
    seat = engine.to_act
    if seat is None:
        return
    player_id = int(hand.players[str(seat)])
    offers = engine.legal_actions(seat)
    for kind in PREFERENCES[policy(player_id)]:
        sizes = [offer.amount for offer in offers if offer.kind.value == kind]
        if sizes:
            services.hand_act(
                table_id=table.pk,
                player=Player.objects.get(pk=player_id),
                expected_seq=hand.seq,
                expected_hand_id=hand.pk,
                kind=kind,
                amount=max(sizes),
            )
            return
    raise AssertionError(f"nothing offered to seat {seat}: {offers}")


def tournament_step(tournament_id: int, policy: Policy) -> bool:
    """One move at each of the tournament's open tables; False once it is over."""
    tournament_clock_sweep(now=timezone.now())
    status = Tournament.objects.values_list("status", flat=True).get(pk=tournament_id)
    if status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        return False
    for row in TournamentTable.objects.filter(tournament_id=tournament_id, closed_at=None):
        table = Table.objects.get(pk=row.table_id)
        hand = Hand.objects.filter(table=table, ended_at=None).order_by("-id").first()
        if hand is not None:
            _act(table, hand, policy)
        elif table.next_hand_at is not None:
            if services.hand_start(table_id=table.pk).ok:
                dealt = Hand.objects.filter(table=table).order_by("-id").first()
                if dealt is not None:  # the task the deal sends (held here)
                    add_on_close_announce(table_id=table.pk, hand_id=dealt.pk)
        else:
            tournament_table_between_hands(table_id=table.pk)
    return True
