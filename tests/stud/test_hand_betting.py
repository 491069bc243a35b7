"""Later streets and betting: R-ORDER-1/2, R-BET-1..6, R-TIME-1."""

from __future__ import annotations

import random

from stud import Game
from tests.stud.conftest import Dealer, card, config, stacked

# Heads-up, seats 1 and 2 (button 2). Seat 1's door 5h brings in; 4th street pairs seat 2.
PAIR_ON_FOURTH = stacked(["2c 3c 5h", "2d 3d 9s"], ["Kc", "9h"], ["4s", "7s"], ["Jd", "Td"])


def three_handed_to(street: int, deck: list[int] | None = None, **options: object) -> Dealer:
    deck = deck or stacked(
        ["Ah Kh 4d", "As Ks 3c", "Qh Qs 8c"], ["Jh", "Js", "Jc"], ["2h", "5s", "6c"]
    )
    dealer = Dealer(deck, players=3, table=config(**options))  # type: ignore[arg-type]
    dealer.passive_to_street(street)
    return dealer


def test_r_order_1_the_best_board_acts_first_on_fourth_street() -> None:
    """R-ORDER-1: seat 2 shows a pair of nines on fourth street and acts first."""
    dealer = Dealer(PAIR_ON_FOURTH, players=2)
    dealer.passive_to_street(4)
    assert dealer.hand.to_act == 2


def test_r_order_1_equal_boards_the_dealers_left_acts_first() -> None:
    """R-ORDER-1: K-J showing twice, suits differ: seat 1, nearest the dealer's left, acts."""
    deck = stacked(["2c 3c Kh", "2d 3d Ks", "4c 4d 5h"], ["Jc", "Jd", "6c"])
    dealer = Dealer(deck, players=3, button=3)
    dealer.passive_to_street(4)
    assert dealer.hand.to_act == 1


def test_r_order_2_the_river_keeps_sixth_streets_order() -> None:
    """R-ORDER-2: the river is face down, so who acted first on sixth acts first on seventh."""
    dealer = three_handed_to(6)
    sixth_first = dealer.hand.to_act
    dealer.passive_to_street(7)
    assert dealer.hand.to_act == sixth_first


def test_r_order_2_a_community_card_is_counted_on_every_board() -> None:
    """R-ORDER-2: eight players; on sixth street seat 1's A-K-Q-J leads, but the community
    river card is a seven that pairs seat 8's 9-8-7-6 board: seat 8 acts first on the river."""
    order = list(range(4))
    random.Random(0).shuffle(order)  # which burn the reshuffle turns up (reshuffle_seed 0)
    burns = ["2c", "2d", "2h"]
    burns.insert(order[0], "7h")
    downs = ["3c 3d", "3h 3s", "4c 4d", "4h 4s", "5d 5h", "5s 6c", "6s 2s", "7d 7s"]
    boards = [
        "Ac Kc Qc Jc",
        "Ad Kd Qd Tc",
        "Ah Kh Jd 9d",
        "As Qh Td 8d",
        "Ks Jh Th 9h",
        "Qs Js 9s 8h",
        "Ts 8s 6h 5c",
        "6d 7c 8c 9c",
    ]
    ups = [b.split() for b in boards]
    third = [f"{d} {u[0]}" for d, u in zip(downs, ups, strict=True)]
    later = [[u[street] for u in ups] for street in (1, 2, 3)]
    deck = stacked(third, *later, burns=burns)
    dealer = Dealer(deck, players=8)
    dealer.passive_to_street(6)
    assert dealer.hand.to_act == 1
    dealer.passive_to_street(7)
    assert dealer.hand.community_card == card("7h")
    assert dealer.hand.to_act == 8


def test_r_bet_1_small_bet_on_third_and_fourth_big_bet_after() -> None:
    """R-BET-1: bets of 100 on fourth street (no open pair) and 200 on fifth to seventh."""
    dealer = three_handed_to(4)
    assert dealer.kinds(dealer.hand.to_act or 0)["bet"] == [100]
    dealer.passive_to_street(5)
    assert dealer.kinds(dealer.hand.to_act or 0)["bet"] == [200]
    dealer.passive_to_street(7)
    assert dealer.kinds(dealer.hand.to_act or 0)["bet"] == [200]


def test_r_bet_2_an_open_pair_on_fourth_allows_the_small_or_the_big_bet() -> None:
    """R-BET-2: a pair of nines showing: seat 2 may bet 100 or 200; after a small bet, seat 1
    may raise small or big; after the big raise, every raise is big."""
    dealer = Dealer(PAIR_ON_FOURTH, players=2)
    dealer.passive_to_street(4)
    assert dealer.kinds(2) == {"fold": [0], "check": [0], "bet": [100, 200]}
    dealer.act(2, "bet", 100)
    assert dealer.kinds(1) == {"fold": [0], "call": [100], "raise": [200, 300]}
    dealer.act(1, "raise", 300)
    assert dealer.kinds(2) == {"fold": [0], "call": [300], "raise": [500]}


def test_r_bet_3_a_bet_and_three_raises_with_three_players() -> None:
    """R-BET-3: on fifth street a bet and three raises cap the betting."""
    dealer = three_handed_to(5)
    first = dealer.hand.to_act
    assert first is not None
    dealer.act(first, "bet", 200)
    for to in (400, 600, 800):
        seat = dealer.hand.to_act
        assert seat is not None
        dealer.act(seat, "raise", to)
    seat = dealer.hand.to_act
    assert seat is not None
    assert dealer.kinds(seat) == {"fold": [0], "call": [800]}


def test_r_bet_4_heads_up_raises_are_unlimited_by_default() -> None:
    """R-BET-4: two players may keep raising past the cap until one is all-in."""
    dealer = Dealer(PAIR_ON_FOURTH, [3000, 3000])
    dealer.passive_to_street(5)
    seat = dealer.hand.to_act
    assert seat is not None
    dealer.act(seat, "bet", 200)
    for raise_number in range(1, 6):
        seat = dealer.hand.to_act
        assert seat is not None
        dealer.act(seat, "raise", 200 + 200 * raise_number)
    assert "raise" in dealer.kinds(dealer.hand.to_act or 0)


def test_r_bet_4_heads_up_raises_limited_when_the_table_says_so() -> None:
    """R-BET-4: with heads_up_raises=5, a bet and five raises, then only call or fold."""
    dealer = Dealer(PAIR_ON_FOURTH, [3000, 3000], table=config(heads_up_raises=5))
    dealer.passive_to_street(5)
    seat = dealer.hand.to_act
    assert seat is not None
    dealer.act(seat, "bet", 200)
    for raise_number in range(1, 6):
        seat = dealer.hand.to_act
        assert seat is not None
        dealer.act(seat, "raise", 200 + 200 * raise_number)
    assert dealer.kinds(dealer.hand.to_act or 0) == {"fold": [0], "call": [1200]}


def test_r_bet_4_a_capped_round_stays_capped_when_a_fold_leaves_two() -> None:
    """R-BET-4: three players cap fifth street; the third folds; the two left may not raise."""
    dealer = three_handed_to(5)
    first = dealer.hand.to_act
    assert first is not None
    dealer.act(first, "bet", 200)
    for to in (400, 600, 800):
        seat = dealer.hand.to_act
        assert seat is not None
        dealer.act(seat, "raise", to)
    seat = dealer.hand.to_act
    assert seat is not None
    dealer.act(seat, "fold")
    remaining = dealer.hand.to_act
    assert remaining is not None
    assert dealer.kinds(remaining) == {"fold": [0], "call": [800]}


def test_r_bet_5_check_raise_is_allowed() -> None:
    """R-BET-5: the first player checks, the next bets, the checker may raise."""
    dealer = Dealer(PAIR_ON_FOURTH, players=2)
    dealer.passive_to_street(5)
    first = dealer.hand.to_act
    assert first is not None
    other = 3 - first
    dealer.act(first, "check")
    dealer.act(other, "bet", 200)
    assert dealer.kinds(first) == {"fold": [0], "call": [200], "raise": [400]}


def five_handed_fifth_street(stacks: list[int]) -> Dealer:
    """Five players, seat 1 shows a pair of aces by fifth street and acts first there."""
    deck = stacked(
        ["2c 3c Ad", "2d 3d Kc", "2h 3h Qc", "2s 3s Jc", "4c 4d Tc"],
        ["Ah", "9d", "8d", "7d", "6d"],
        ["5h", "9h", "8h", "7h", "6h"],
        ["Kd", "Qd", "Jd", "Td", "5d"],
    )
    dealer = Dealer(deck, stacks)
    dealer.passive_to_street(5)
    assert dealer.hand.to_act == 1
    return dealer


def test_r_bet_6_a_short_all_in_raise_does_not_reopen_for_those_who_acted() -> None:
    """R-BET-6: seat 1 bets 200; seat 2 is all-in for 250 (short by more than half); seat 3,
    yet to act, may complete to 400; seat 1, who acted, may only call or fold."""
    dealer = five_handed_fifth_street([1000, 250 + 35, 1000, 1000, 1000])
    dealer.act(1, "bet", 200)
    assert dealer.kinds(2) == {"fold": [0], "call": [200], "raise": [250]}
    dealer.act(2, "raise", 250)
    assert dealer.kinds(3) == {"fold": [0], "call": [250], "raise": [400]}
    dealer.act(3, "call")
    dealer.act(4, "call")
    dealer.act(5, "call")
    assert dealer.kinds(1) == {"fold": [0], "call": [250]}


def test_r_bet_6_a_half_bet_all_in_counts_as_full() -> None:
    """R-BET-6: on a 200 round, a 150 all-in bet can be raised to 350."""
    dealer = five_handed_fifth_street([150 + 35, 1000, 1000, 1000, 1000])
    assert dealer.kinds(1) == {"fold": [0], "check": [0], "bet": [150]}
    dealer.act(1, "bet", 150)
    assert dealer.kinds(2) == {"fold": [0], "call": [150], "raise": [350]}


def test_r_bet_6_a_short_all_in_bet_may_be_completed() -> None:
    """R-BET-6: a 60 all-in bet on a 200 round: the next player may fold, call 60 or
    complete to 200."""
    dealer = five_handed_fifth_street([60 + 35, 1000, 1000, 1000, 1000])
    dealer.act(1, "bet", 60)
    assert dealer.kinds(2) == {"fold": [0], "call": [60], "complete": [200]}


def test_r_bet_6_several_short_all_ins_reopen_once_they_sum_to_a_raise() -> None:
    """R-BET-6: over seat 1's 200 bet, all-ins to 290 and 380 (90 each, under half a bet) do
    not reopen; seat 4's all-in to 400 brings the three to a full raise: seat 1 may raise
    again (to 600)."""
    dealer = five_handed_fifth_street([1000, 290 + 35, 380 + 35, 400 + 35, 1000])
    dealer.act(1, "bet", 200)
    dealer.act(2, "raise", 290)
    dealer.act(3, "raise", 380)
    assert dealer.kinds(4) == {"fold": [0], "call": [380], "raise": [400]}
    dealer.act(4, "raise", 400)
    assert dealer.hand.status_of(4) == "all_in"
    dealer.act(5, "call")
    assert dealer.kinds(1) == {"fold": [0], "call": [400], "raise": [600]}


def test_r_time_1_a_player_who_can_check_checks() -> None:
    """R-TIME-1: out of time with nothing to call, seat checks."""
    dealer = three_handed_to(4)
    seat = dealer.hand.to_act
    assert seat is not None
    dealer.time_out(seat, protected=False)
    assert dealer.said("timeout") == [{"seat": seat, "result": "check"}]
    assert dealer.hand.status_of(seat) == "active"


def test_r_time_1_unprotected_facing_a_bet_folds() -> None:
    """R-TIME-1: out of time facing a bet with no all-in protection left: folded."""
    dealer = three_handed_to(4)
    seat = dealer.hand.to_act
    assert seat is not None
    dealer.act(seat, "bet", 100)
    nxt = dealer.hand.to_act
    assert nxt is not None
    dealer.time_out(nxt, protected=False)
    assert dealer.hand.status_of(nxt) == "folded"


def test_r_time_1_protected_player_is_all_in_for_what_they_put_in() -> None:
    """R-TIME-1: seat 3 times out facing a fifth-street bet with protection: they stay in with
    the 135 they had put in, win the main pot with their queens full, and the later betting
    is a side pot they cannot win. Their chips behind stay theirs."""
    deck = stacked(
        ["Ah Kh 4d", "As Ks 3c", "Qh Qs 8c"],
        ["Jh", "Js", "Qc"],
        ["2h", "5s", "8d"],
        ["7c", "6c", "8h"],
        ["9c", "9d", "2d"],
    )
    dealer = Dealer(deck, players=3)
    dealer.passive_to_street(5)
    first = dealer.hand.to_act
    assert first == 3  # the pair of eights showing leads
    dealer.act(3, "check")
    dealer.act(1, "bet", 200)
    dealer.act(2, "call")
    dealer.act(3, "raise", 400)
    dealer.act(1, "call")
    dealer.act(2, "call")
    dealer.passive_to_street(6)
    seat = dealer.hand.to_act
    assert seat == 3
    dealer.act(3, "check")
    dealer.act(1, "bet", 200)
    dealer.act(2, "call")
    dealer.time_out(3, protected=True)
    assert dealer.said("timeout")[-1] == {"seat": 3, "result": "all_in_protection"}
    assert dealer.hand.status_of(3) == "all_in"
    behind = dealer.hand.stack(3)
    assert behind == 1000 - 10 - 25 - 400
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None
    main, side = result.pots
    assert main.eligible == (1, 2, 3) and main.high_winners == (3,)
    assert main.amount == 3 * (10 + 25 + 400)
    assert side.eligible == (1, 2) and side.amount == 400
    assert result.stack(3) == behind + main.amount


def test_r_time_1_a_bring_in_who_times_out_posts_the_bring_in() -> None:
    """R-TIME-1 with R-BRING-2: the bring-in cannot check or fold; the bring-in is posted."""
    dealer = Dealer(PAIR_ON_FOURTH, players=2, table=config(Game.STUD))
    dealer.time_out(1, protected=False)
    assert dealer.hand.bet(1) == 25


def test_ruling_fold_is_offered_when_a_check_is_free() -> None:
    """Contract ruling (PokerStars allows it; real hand 35874676388): on fourth street the
    first to act may check or fold; the fold folds the hand, the others play on."""
    dealer = three_handed_to(4)
    seat = dealer.hand.to_act
    assert seat is not None
    assert dealer.kinds(seat) == {"fold": [0], "check": [0], "bet": [100]}
    dealer.act(seat, "fold")
    assert dealer.hand.status_of(seat) == "folded"
    assert dealer.hand.street == 4 and not dealer.hand.is_over
    assert dealer.said("action")[-1]["action"] == "fold"
    dealer.passive_to_end()
    result = dealer.hand.result
    assert result is not None and seat not in result.winners
    assert sum(result.final_stacks[i][1] for i in range(3)) == dealer.total_chips


def test_ruling_a_free_fold_heads_up_ends_the_hand_without_showdown() -> None:
    """Heads-up on fourth street, seat 2 (the open pair) folds rather than check: seat 1 wins
    the antes and third-street bets uncontested."""
    dealer = Dealer(PAIR_ON_FOURTH, players=2)
    dealer.passive_to_street(4)
    dealer.act(2, "fold")
    result = dealer.hand.result
    assert result is not None and not result.showdown
    assert result.winners == (1,)
    assert result.stack(1) == 1000 + 10 + 25


def test_r_time_1_a_time_out_checks_though_fold_is_offered() -> None:
    """R-TIME-1: fold is offered beside the free check, yet running out of time checks."""
    dealer = three_handed_to(5)
    seat = dealer.hand.to_act
    assert seat is not None
    assert "fold" in dealer.kinds(seat) and "check" in dealer.kinds(seat)
    dealer.time_out(seat, protected=False)
    assert dealer.said("timeout")[-1] == {"seat": seat, "result": "check"}
    assert dealer.hand.status_of(seat) == "active"


# --- Issue #17: never offer a bet or raise that no opponent could answer ------------------
# "Nobody may bet or raise when no other player could act on it" (docs/engine-contract.md):
# a bet, completion or raise is offered only while an opponent able to act could put in more
# than the bet they face now. Third street below: seat 1's 2c brings in (25), seat 2 acts
# next, and so on clockwise; every stack includes the 10 ante.
THIRD_STREET = ["Ah Kh 2c", "As Ks Kd", "Qh Qs Qd", "Jh Js Jd"]


def third_street(stacks: list[int]) -> Dealer:
    return Dealer(stacked(THIRD_STREET[: len(stacks)]), stacks)


def test_r_bet_3_no_raise_over_an_all_in_completion_the_last_opponent_can_only_call() -> None:
    """Seat 2 completes all-in to 100; seat 1, the bring-in, has exactly the 75 more it needs
    to call. Seat 3 may fold or call, not raise to 200: nobody could put in a chip of it.
    Everyone calls, the cards are dealt out, and no raise is ever said."""
    dealer = third_street([10 + 25 + 75, 10 + 100, 1000])
    dealer.act(1, "bring_in", 25)
    dealer.act(2, "complete", 100)
    assert dealer.hand.status_of(2) == "all_in"
    assert dealer.kinds(3) == {"fold": [0], "call": [100]}
    dealer.act(3, "call")
    assert dealer.kinds(1) == {"fold": [0], "call": [100]}
    dealer.act(1, "call")
    assert dealer.hand.is_over
    assert [a["action"] for a in dealer.said("action")] == ["bring_in", "complete", "call", "call"]
    assert dealer.hand.returned == ()
    result = dealer.hand.result
    assert result is not None
    assert sum(pot.amount for pot in result.pots) == 3 * (10 + 100)


def test_r_bet_3_one_chip_beyond_the_call_is_enough_to_answer_a_raise() -> None:
    """The same table with one chip more for seat 1: it could call the raise in part (one
    chip of its 100), so seat 3 may raise to 200; seat 1 then calls all-in for less."""
    dealer = third_street([10 + 25 + 76, 10 + 100, 1000])
    dealer.act(1, "bring_in", 25)
    dealer.act(2, "complete", 100)
    assert dealer.kinds(3) == {"fold": [0], "call": [100], "raise": [200]}
    dealer.act(3, "raise", 200)
    assert dealer.kinds(1) == {"fold": [0], "call": [101]}


def test_r_bet_6_no_completion_of_a_short_all_in_when_the_others_are_short_of_it() -> None:
    """Seat 2 completes all-in for 60, short of the 100 bet (R-BET-6: the next player could
    complete it to 100); seat 1 has only 45 in all, short even of the 60. Seat 3 may fold or
    call 60, nothing more; seat 1 then calls all-in for what it has."""
    dealer = third_street([10 + 25 + 20, 10 + 60, 1000])
    dealer.act(1, "bring_in", 25)
    assert dealer.kinds(2) == {"fold": [0], "call": [25], "complete": [60]}
    dealer.act(2, "complete", 60)
    assert dealer.kinds(3) == {"fold": [0], "call": [60]}
    dealer.act(3, "call")
    assert dealer.kinds(1) == {"fold": [0], "call": [45]}
    dealer.act(1, "call")
    assert dealer.hand.is_over
    assert "complete" not in [a["action"] for a in dealer.said("action")[2:]]


def test_r_bet_3_two_all_ins_and_one_player_behind_who_has_yet_to_act() -> None:
    """Seats 2 and 3 are all-in for 100; seat 1, the bring-in, has not acted on the
    completion yet. With chips beyond the 100 it could answer a raise, so seat 4 may raise,
    and seat 1 may raise back (seat 4 can answer that)."""
    dealer = third_street([1000, 10 + 100, 10 + 100, 1000])
    dealer.act(1, "bring_in", 25)
    dealer.act(2, "complete", 100)
    dealer.act(3, "call")
    assert dealer.hand.status_of(3) == "all_in"
    assert dealer.kinds(4) == {"fold": [0], "call": [100], "raise": [200]}
    dealer.act(4, "raise", 200)
    assert dealer.kinds(1) == {"fold": [0], "call": [200], "raise": [300]}


def test_r_bet_3_two_all_ins_and_one_player_behind_with_only_the_call() -> None:
    """As above, but seat 1 has exactly the 75 it needs to call the completion: seat 4 may
    only fold or call."""
    dealer = third_street([10 + 25 + 75, 10 + 100, 10 + 100, 1000])
    dealer.act(1, "bring_in", 25)
    dealer.act(2, "complete", 100)
    dealer.act(3, "call")
    assert dealer.kinds(4) == {"fold": [0], "call": [100]}


def test_r_bet_6_heads_up_no_completion_over_a_short_all_in_bet() -> None:
    """Heads-up on fifth street, seat 1 (a pair of aces) bets all-in for 60, short of the
    200 bet: seat 2 may fold or call, not complete to 200 (nobody left to call it)."""
    deck = stacked(["2c 3c Ad", "2d 3d Kc"], ["Ah", "9d"], ["5h", "9h"])
    dealer = Dealer(deck, [10 + 25 + 60, 1000])
    dealer.passive_to_street(5)
    assert dealer.hand.to_act == 1
    dealer.act(1, "bet", 60)
    assert dealer.kinds(2) == {"fold": [0], "call": [60]}


def test_r_bet_6_heads_up_the_bring_in_may_not_complete_when_the_other_has_no_more() -> None:
    """Heads-up, seat 2 has 25 left after the ante, no more than the bring-in: seat 1 may
    only bring in (a completion to 100 could be called for 25 at most, the same as the
    bring-in); seat 2 then calls all-in. With 26 left, seat 1 may complete."""
    deck = stacked(["Ah Kh 2c", "As Ks Kd"])
    dealer = Dealer(deck, [1000, 10 + 25])
    assert dealer.kinds(1) == {"bring_in": [25]}
    dealer.act(1, "bring_in", 25)
    assert dealer.kinds(2) == {"fold": [0], "call": [25]}
    dealer.act(2, "call")
    assert dealer.hand.is_over
    richer = Dealer(deck, [1000, 10 + 26])
    assert richer.kinds(1) == {"bring_in": [25], "complete": [100]}


def test_r_bet_2_no_raise_on_an_open_pair_when_nobody_could_answer_it() -> None:
    """Fourth street, seat 2's pair of nines: it bets its last 100 (the big bet is more than
    it has, so one bet is offered). Seat 1 has exactly 100 behind too: seat 3 may fold or
    call, not raise small or big."""
    deck = stacked(["Ah Kh 2c", "As Ks 9s", "Qh Qs Kd"], ["4c", "9h", "7d"])
    dealer = Dealer(deck, [10 + 25 + 100, 10 + 25 + 100, 1000])
    dealer.passive_to_street(4)
    assert dealer.hand.to_act == 2
    assert dealer.kinds(2) == {"fold": [0], "check": [0], "bet": [100]}
    dealer.act(2, "bet", 100)
    assert dealer.kinds(3) == {"fold": [0], "call": [100]}
    dealer.act(3, "call")
    assert dealer.kinds(1) == {"fold": [0], "call": [100]}


def test_r_time_1_a_protected_player_cannot_answer_a_raise() -> None:
    """R-TIME-1: seat 2 times out protected (all-in for what it put in, its chips behind
    stay out of play): with the bring-in's chips only enough to call, seat 3 may not raise."""
    dealer = third_street([10 + 25 + 75, 1000, 1000])
    dealer.act(1, "bring_in", 25)
    dealer.time_out(2, protected=True)
    assert dealer.hand.status_of(2) == "all_in"
    assert dealer.kinds(3) == {"fold": [0], "call": [25], "complete": [100]}
    dealer.act(3, "complete", 100)
    assert dealer.kinds(1) == {"fold": [0], "call": [100]}
