"""The hand-strength line under a player's own cards (issue #14): the showdown's words for
what the cards make so far, and in Stud Hi/Lo the eight-or-better low once there is one."""

from __future__ import annotations

from stud.cards import parse_cards
from stud.config import Game
from stud.strength import HandStrength, strength_of_cards


def test_two_pair_reads_as_a_player_says_it():
    cards = parse_cards("Kh 9d Ks 9c 2d")
    assert strength_of_cards(cards, Game.STUD) == HandStrength("Two pair, Kings and Nines", None)


def test_third_street_names_trips_a_pair_or_the_high_card():
    assert strength_of_cards(parse_cards("As Ad Ah"), Game.STUD).high == "Three of a kind, Aces"
    assert strength_of_cards(parse_cards("Qs Qd 4h"), Game.STUD).high == "Pair of Queens"
    assert strength_of_cards(parse_cards("2c 3d 7c"), Game.STUD).high == "High card Seven"


def test_r_hilo_1_the_low_line_appears_once_five_cards_of_eight_or_lower_qualify():
    """R-HILO-1: 8-6-5-3-A is a low (the king and the pair of sixes play no part); four low
    cards are not one yet, and in plain stud there is never a low line."""
    seven = parse_cards("8h 6d 5s 3c Ad Kd 6s")
    assert strength_of_cards(seven, Game.STUD8) == HandStrength("Pair of Sixes", "Low: 8-6-5-3-A")
    assert strength_of_cards(parse_cards("8h 6d 5s 3c Kd"), Game.STUD8).low is None
    assert strength_of_cards(seven, Game.STUD).low is None


def test_no_card_no_line():
    assert strength_of_cards([], Game.STUD) is None
