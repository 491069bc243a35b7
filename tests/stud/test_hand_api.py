"""The hand as a value: refusals, immutability, JSON, replay and views."""

from __future__ import annotations

import json

import pytest

from stud import (
    Action,
    ActionKind,
    IllegalAction,
    StudHand,
    TimeOut,
    record_from_json,
    replay,
    view,
)
from tests.stud.conftest import Dealer, stacked

THREE = stacked(["Ah Kh Qd", "As Ks Qc", "2c 3c Kc"])


def snapshot(hand: StudHand) -> str:
    return json.dumps(hand.to_json(), sort_keys=True)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Action(1, ActionKind.CALL, 25), "not seat 1's turn"),
        (Action(9, ActionKind.CALL, 25), "seat 9 is not in this hand"),
        (Action(2, ActionKind.FOLD), "may not fold"),
        (Action(2, ActionKind.BRING_IN, 30), "may not bring_in 30"),
        (Action(2, ActionKind.COMPLETE, 150), "may not complete 150"),
        (Action(2, ActionKind.RAISE, 200), "may not raise 200"),
    ],
)
def test_refused_actions_leave_the_hand_exactly_as_it_was(action: Action, message: str) -> None:
    dealer = Dealer(THREE, players=3)
    before = snapshot(dealer.hand)
    with pytest.raises(IllegalAction, match=message):
        dealer.hand.apply(action)
    assert snapshot(dealer.hand) == before


def test_a_raise_past_the_cap_is_refused() -> None:
    dealer = Dealer(THREE, players=3)
    dealer.act(2, "bring_in")
    dealer.act(3, "complete", 100)
    dealer.act(1, "raise", 200)
    dealer.act(2, "raise", 300)
    dealer.act(3, "raise", 400)
    before = snapshot(dealer.hand)
    with pytest.raises(IllegalAction, match="may not raise 500"):
        dealer.hand.apply(Action(1, ActionKind.RAISE, 500))
    assert snapshot(dealer.hand) == before


def test_nothing_is_accepted_after_the_hand_ends() -> None:
    dealer = Dealer(THREE, players=3)
    dealer.passive_to_end()
    assert dealer.hand.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="the hand is over"):
        dealer.hand.apply(Action(1, ActionKind.CHECK))
    with pytest.raises(IllegalAction, match="the hand is over"):
        dealer.hand.time_out(1, protected=True)


def test_a_time_out_for_a_seat_not_to_act_is_refused() -> None:
    dealer = Dealer(THREE, players=3)
    with pytest.raises(IllegalAction):
        dealer.hand.time_out(1, protected=False)


def test_apply_returns_a_new_hand_and_never_changes_the_old_one() -> None:
    dealer = Dealer(THREE, players=3)
    old = dealer.hand
    before = snapshot(old)
    new, _ = old.apply(Action(2, ActionKind.BRING_IN, 25))
    assert snapshot(old) == before
    assert new != old and new.to_act == 3


def test_legal_actions_is_empty_for_a_seat_not_to_act() -> None:
    dealer = Dealer(THREE, players=3)
    assert dealer.hand.legal_actions(1) == []
    assert dealer.hand.legal_actions(42) == []


def test_a_call_for_the_full_bet_is_capped_at_all_in() -> None:
    """The contract: a call's amount is the to-amount, capped at all-in by the engine."""
    dealer = Dealer(THREE, [1000, 1000, 60])
    dealer.act(2, "bring_in")
    dealer.act(3, "call")
    dealer.act(1, "complete", 100)
    dealer.act(2, "call")
    hand, _ = dealer.hand.apply(Action(3, ActionKind.CALL, 100))
    assert hand.stack(3) == 0 and hand.status_of(3) == "all_in"
    assert hand.pot == 3 * 10 + 100 + 100 + 50


def play_mixed(dealer: Dealer) -> None:
    dealer.act(2, "bring_in")
    dealer.act(3, "complete", 100)
    dealer.act(1, "call")
    dealer.act(2, "call")
    seat = dealer.hand.to_act
    assert seat is not None
    dealer.time_out(seat, protected=False)
    seat = dealer.hand.to_act
    assert seat is not None
    dealer.act(seat, "bet", 100)
    seat = dealer.hand.to_act
    assert seat is not None
    dealer.time_out(seat, protected=True)


def test_json_round_trip_is_lossless_mid_hand_and_at_the_end() -> None:
    dealer = Dealer(THREE, players=3)
    play_mixed(dealer)
    for hand in (dealer.hand,):
        data = json.loads(json.dumps(hand.to_json()))
        assert StudHand.from_json(data) == hand
    dealer.passive_to_end()
    data = json.loads(json.dumps(dealer.hand.to_json()))
    again = StudHand.from_json(data)
    assert again == dealer.hand and again.result == dealer.hand.result


def test_replay_of_the_log_reproduces_the_hand() -> None:
    dealer = Dealer(THREE, players=3)
    play_mixed(dealer)
    dealer.passive_to_end()
    hand = dealer.hand
    assert any(isinstance(r, TimeOut) for r in hand.log)
    log = [record_from_json(json.loads(json.dumps(r.to_json()))) for r in hand.log]
    assert replay(dealer.config, dealer.seats, dealer.deck, dealer.button, log) == hand


def test_the_public_view_has_no_down_card_and_a_seat_sees_its_own() -> None:
    dealer = Dealer(THREE, players=3)
    public = view(dealer.hand, None)
    assert all("down" not in s for s in public["seats"])  # type: ignore[attr-defined]
    mine = view(dealer.hand, 1)
    seats = {s["seat"]: s for s in mine["seats"]}  # type: ignore[attr-defined]
    assert seats[1]["down"] == list(dealer.hand.down_cards(1))
    assert "down" not in seats[2]
    assert view(dealer.hand, 2)["legal_actions"] == [
        {"kind": "bring_in", "amount": 25, "adds": 25},
        {"kind": "complete", "amount": 100, "adds": 100},
    ]


def test_shown_cards_are_in_every_view_and_mucked_cards_in_none() -> None:
    dealer = Dealer(THREE, players=3)
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None
    public = view(dealer.hand, None)
    text = json.dumps(public)
    for seat, cards in result.shown:
        entry = next(s for s in public["seats"] if s["seat"] == seat)  # type: ignore[attr-defined]
        assert entry["shown"] == list(cards)
    assert "mucked" not in public["result"]  # type: ignore[operator]
    assert text  # JSON-ready


def test_down_card_events_are_visible_only_to_their_owner() -> None:
    dealer = Dealer(THREE, players=3)
    dealer.passive_to_end()
    for event in dealer.events:
        if event.kind == "down_cards":
            assert event.visible_to == event.payload["seat"]
        else:
            assert event.visible_to is None


def test_an_action_kind_given_as_text_is_the_same_action() -> None:
    """A client's "call" (plain text) is the call offered, and the log keeps it canonical."""
    dealer = Dealer(THREE, players=3)
    hand, _ = dealer.hand.apply(Action(2, "bring_in", 25))  # type: ignore[arg-type]
    hand, _ = hand.apply(Action(3, "call", 25))  # type: ignore[arg-type]
    assert hand.bet(3) == 25 and hand.to_act == 1
    assert all(isinstance(r, Action) and r.kind in ActionKind for r in hand.log)
    assert json.loads(json.dumps([r.to_json() for r in hand.log]))[1]["kind"] == "call"
    assert StudHand.from_json(hand.to_json()) == hand
