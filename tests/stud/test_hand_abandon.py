"""A player leaving mid-hand (R-BUY-1: leaving returns the stack; the hand in play is folded):
``StudHand.abandon``, with R-BRING-2 (a bring-in owed is posted) and R-SHOW-4 (uncalled bets)."""

from __future__ import annotations

import json

import pytest

from stud import Abandon, ActionKind, IllegalAction, StudHand, record_from_json, replay
from stud.history_text import render_pokerstars
from tests.stud.conftest import Dealer, stacked
from tests.stud.pokerstars import parse_hand

# Seats 1-3, button 3; seat 2's Qc is the lowest door and brings in; then seat 3, seat 1.
THREE = stacked(["Ah Kh Qd", "As Ks Qc", "2c 3c Kc"])


def abandon(dealer: Dealer, seat: int) -> list[str]:
    dealer.hand, events = dealer.hand.abandon(seat)
    dealer.events.extend(events)
    return [e.kind for e in events]


def test_r_buy_1_leaving_out_of_turn_folds_at_once_and_the_turn_stays() -> None:
    """R-BUY-1: seat 1 leaves while seat 3 is to act: seat 1's hand is folded at once, its
    ante stays in the pot, and seat 3 is still to act."""
    dealer = Dealer(THREE, players=3)
    dealer.act(2, "bring_in")
    pot = dealer.hand.pot
    assert abandon(dealer, 1) == ["abandon", "action"]
    assert dealer.said("action")[-1]["action"] == "fold"
    assert dealer.hand.status_of(1) == "folded"
    assert dealer.hand.to_act == 3 and dealer.hand.pot == pot
    assert dealer.hand.log[-1] == Abandon(1)
    dealer.act(3, "call")
    assert dealer.hand.street == 4  # seat 1 is not asked: the round closes after seat 3


def test_r_buy_1_leaving_on_ones_turn_moves_on_as_a_fold_does() -> None:
    """R-BUY-1: seat 3 leaves when it is their turn: the same hand as folding, bar the log."""
    dealer = Dealer(THREE, players=3)
    dealer.act(2, "bring_in")
    folded, _ = dealer.hand.apply(dealer.hand.legal_actions(3)[0].for_seat(3))
    assert dealer.hand.legal_actions(3)[0].kind is ActionKind.FOLD
    left, _ = dealer.hand.abandon(3)
    assert left.to_act == folded.to_act == 1
    assert left.to_json() | {"log": None} == folded.to_json() | {"log": None}


def test_r_bring_2_the_bring_in_leaving_before_posting_posts_then_folds() -> None:
    """R-BRING-2: folding instead of bringing in is not offered, so a bring-in who leaves
    first posts it (as a time-out would, R-TIME-1), then is folded; seat 3 faces the 25."""
    dealer = Dealer(THREE, players=3)
    assert abandon(dealer, 2) == ["abandon", "action", "action"]
    assert [a["action"] for a in dealer.said("action")] == ["bring_in", "fold"]
    assert dealer.hand.status_of(2) == "folded"
    assert dealer.hand.to_act == 3
    assert dealer.hand.current_bet == 25 and dealer.hand.pot == 30 + 25


def test_r_bring_2_the_bring_in_may_leave_after_posting() -> None:
    """The bring-in posted, then leaves out of turn: just a fold of a posted hand."""
    dealer = Dealer(THREE, players=3)
    dealer.act(2, "bring_in")
    abandon(dealer, 2)
    assert dealer.hand.status_of(2) == "folded" and dealer.hand.to_act == 3
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None and 2 not in result.winners
    assert sum(stack for _, stack in result.final_stacks) == dealer.total_chips


def test_r_buy_1_the_last_player_left_wins_and_may_show() -> None:
    """Heads-up, the bring-in (seat 2) leaves while seat 1 is to act: the hand ends, seat 1
    wins the antes uncontested and may show (R-SHOW-3); the uncalled bring-in goes back to
    seat 2 (R-SHOW-4)."""
    dealer = Dealer(stacked(["Ah Kh Qd", "As Ks Qc"]), players=2)
    seat, other = 2, 1
    dealer.act(seat, "bring_in")
    assert dealer.hand.to_act == other
    abandon(dealer, seat)
    result = dealer.hand.result
    assert result is not None and not result.showdown and result.winners == (other,)
    assert result.uncalled == ((seat, 25),)
    assert result.stack(other) == 1000 + 10 and result.stack(seat) == 1000 - 10
    assert dealer.hand.may_show(other) and not dealer.hand.may_show(seat)


def test_r_show_4_a_leavers_uncalled_bet_goes_back_their_called_chips_stay() -> None:
    """Seat 1 bets 100 on fourth street and leaves before anyone acts. The bet stands: seat 2
    calls it, seat 3 folds, and seat 2 wins seat 1's 100 with the rest. Heads-up, a leaver's
    uncalled bet goes back to them when the hand ends (R-SHOW-4)."""
    dealer = Dealer(THREE, players=3)
    dealer.passive_to_street(4)
    first = dealer.hand.to_act
    assert first is not None
    dealer.act(first, "bet", 100)
    abandon(dealer, first)
    nxt = dealer.hand.to_act
    assert nxt is not None
    assert {o.kind for o in dealer.hand.legal_actions(nxt)} >= {ActionKind.CALL}
    dealer.act(nxt, "call")
    last = dealer.hand.to_act
    assert last is not None
    dealer.act(last, "fold")
    result = dealer.hand.result
    assert result is not None and result.winners == (nxt,) and result.uncalled == ()
    assert result.stack(nxt) == 1000 + 2 * 35 + 100  # the others' antes, bring-ins, seat 1's bet

    heads_up = Dealer(THREE, players=3)
    heads_up.passive_to_street(4)
    first = heads_up.hand.to_act
    assert first is not None
    abandon(heads_up, next(s for s in (1, 2, 3) if s != first))
    heads_up.act(first, "bet", 100)
    abandon(heads_up, first)
    result = heads_up.hand.result
    assert result is not None and result.uncalled == ((first, 100),)
    assert result.stack(first) == 1000 - 35


def test_r_buy_1_leaving_is_refused_for_a_seat_not_in_the_hand_or_after_it() -> None:
    dealer = Dealer(THREE, players=3)
    before = dealer.hand.to_json()
    with pytest.raises(IllegalAction, match="not in this hand"):
        dealer.hand.abandon(7)
    abandon(dealer, 1)
    with pytest.raises(IllegalAction, match="folded"):
        dealer.hand.abandon(1)
    abandon(dealer, 3)
    assert dealer.hand.is_over
    with pytest.raises(IllegalAction, match="over"):
        dealer.hand.abandon(2)
    assert Dealer(THREE, players=3).hand.to_json() == before


def test_r_buy_1_an_abandon_is_logged_and_replays() -> None:
    dealer = Dealer(THREE, players=3)
    dealer.act(2, "bring_in")
    abandon(dealer, 1)
    dealer.passive_to_end()
    hand = dealer.hand
    assert [record_from_json(r.to_json()) for r in hand.log] == list(hand.log)
    assert Abandon(1).to_json() == {"type": "abandon", "seat": 1}
    assert StudHand.from_json(json.loads(json.dumps(hand.to_json()))) == hand
    assert replay(dealer.config, dealer.seats, dealer.deck, dealer.button, hand.log) == hand


def test_r_hist_3_a_leaver_in_the_pokerstars_text() -> None:
    """R-HIST-3: the history says the player left, then the bring-in they owed and the fold;
    read back, it gives the engine's final stacks."""
    dealer = Dealer(THREE, players=3)
    abandon(dealer, 2)
    dealer.passive_to_end()
    text = render_pokerstars(dealer.hand, hand_id=1, table_name="T", started_at="2024/01/01")
    assert "P2 leaves the table\nP2: brings in for $0.25\nP2: folds\nP3: calls $0.25\n" in text
    assert "Seat 2: P2 folded on the 3rd Street\n" in text
    parsed = parse_hand(text)
    result = dealer.hand.result
    assert result is not None
    assert parsed.final_stacks() == {f"P{seat}": stack for seat, stack in result.final_stacks}
