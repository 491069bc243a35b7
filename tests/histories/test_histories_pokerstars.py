"""R-HIST-3: a played Stud Hi/Lo hand with a side pot, a split pot and a high/low split,
downloaded in PokerStars text and compared line by line with a text written by hand.

The hand (seats 1-3, button seat 3, $1/$2 stud8, ante 10c, bring-in 50c, unraked):
alice 7h 8s / 5c 6d 9c Kh / Qd and bob 7s 8c / 9d 5d 6h Ks / Qc both make a straight, Five
to Nine, and no low (R-POT-3 tie); carol Ah 2d / Jc 3s 4h Jd / 6c has 40c, antes 10c and
calls the bring-in all-in for 30c: the only low, 6-4-3-2-A (R-HILO-1).
Pots (R-POT-1): main 3 x 40c = $1.20 (all three), side 2 x 20c = 40c (alice, bob).
Main: high half 60c split 30c/30c, low half 60c to carol (R-HILO-1, R-HILO-3, R-POT-3).
Side: no low qualifies, the high takes it all (R-HILO-2), split 20c/20c.
R-BRING-1: alice's 5c is the lowest door. R-ORDER-1: carol's board is the best showing on
every later street (J-3, J-4-3, then a pair of jacks), but she is all-in, so the action
starts with the next player clockwise from her: alice (seat 1), on every street.
R-SHOW-2: no river bet, so the first to act on the river (alice) shows first.
The order of two equal shares is no rule's: the engine lists tied winners in R-POT-4's
odd-chip order (the highest card by suit first: bob's Ks over alice's Kh), so bob first.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse

from tests.history_hands import hold_scheduling, play_hand
from tests.table_factories import make_table, seated_player

pytestmark = pytest.mark.django_db

DECK = (
    "7h 7s Ah 8s 8c 2d 5c 9d Jc"  # first down, second down, door: seats 1, 2, 3
    " 2c 6d 5d 3s"  # burn, 4th
    " 2h 9c 6h 4h"  # burn, 5th
    " 2s Kh Ks Jd"  # burn, 6th
    " 3c Qd Qc 6c"  # burn, river
)

EXPECTED_FOR_ALICE = """\
PokerStars Hand #{hand_id}:  7 Card Stud Hi/Lo Limit ($1/$2 USD) - 2025/03/14 13:00:00 ET
Table 'Hi-Lo' 8-max
Seat 1: alice ($20 in chips)
Seat 2: bob ($20 in chips)
Seat 3: carol ($0.40 in chips)
alice: posts the ante $0.10
bob: posts the ante $0.10
carol: posts the ante $0.10
*** 3rd STREET ***
Dealt to alice [7h 8s 5c]
Dealt to bob [9d]
Dealt to carol [Jc]
alice: brings in for $0.50
bob: calls $0.50
carol: calls $0.30 and is all-in
*** 4th STREET ***
Dealt to alice [7h 8s 5c] [6d]
Dealt to bob [9d] [5d]
Dealt to carol [Jc] [3s]
alice: checks
bob: checks
*** 5th STREET ***
Dealt to alice [7h 8s 5c 6d] [9c]
Dealt to bob [9d 5d] [6h]
Dealt to carol [Jc 3s] [4h]
alice: checks
bob: checks
*** 6th STREET ***
Dealt to alice [7h 8s 5c 6d 9c] [Kh]
Dealt to bob [9d 5d 6h] [Ks]
Dealt to carol [Jc 3s 4h] [Jd]
alice: checks
bob: checks
*** RIVER ***
Dealt to alice [7h 8s 5c 6d 9c Kh] [Qd]
alice: checks
bob: checks
*** SHOW DOWN ***
alice: shows [7h 8s 5c 6d 9c Kh Qd] (HI: a straight, Five to Nine)
bob: shows [7s 8c 9d 5d 6h Ks Qc] (HI: a straight, Five to Nine)
carol: shows [Ah 2d Jc 3s 4h Jd 6c] (HI: a pair of Jacks; LO: 6,4,3,2,A)
bob collected $0.20 from side pot
alice collected $0.20 from side pot
bob collected $0.30 from main pot
alice collected $0.30 from main pot
carol collected $0.60 from main pot
*** SUMMARY ***
Total pot $1.60 Main pot $1.20. Side pot $0.40. | Rake $0
Seat 1: alice showed [7h 8s 5c 6d 9c Kh Qd] and won ($0.50) with HI: a straight, Five to Nine
Seat 2: bob showed [7s 8c 9d 5d 6h Ks Qc] and won ($0.50) with HI: a straight, Five to Nine
Seat 3: carol showed [Ah 2d Jc 3s 4h Jd 6c] and won ($0.60) with HI: a pair of Jacks; LO: 6,4,3,2,A
"""


def test_r_hist_3_side_pot_split_pot_and_hi_lo_split_line_by_line(monkeypatch):
    hold_scheduling(monkeypatch)
    table = make_table(
        name="Hi-Lo", game="stud8", small_bet=100, big_bet=200, ante=10, bring_in=50, buy_in=40
    )
    players = {
        1: seated_player(table, seat_number=1, buy_in=2000, username="alice"),
        2: seated_player(table, seat_number=2, buy_in=2000, username="bob"),
        3: seated_player(table, seat_number=3, buy_in=40, username="carol"),
    }
    hand = play_hand(table, players, DECK, now=datetime(2025, 3, 14, 17, 0, tzinfo=UTC))
    client = Client()
    client.force_login(players[1])

    response = client.get(reverse("hand_download_text", kwargs={"hand_id": hand.pk}))

    assert response.status_code == 200
    got = response.content.decode().splitlines()
    expected = EXPECTED_FOR_ALICE.format(hand_id=hand.pk).splitlines()
    for number, (line, want) in enumerate(zip(got, expected, strict=False), start=1):
        assert line == want, f"line {number}"
    assert len(got) == len(expected)
