"""What one seat may see of a hand (DESIGN.md "The engine"), as JSON-ready data.

A seat sees its own down cards, everyone's up cards, the community card, and the cards shown
at showdown. The public view (``seat=None``) has no unshown down card at all; mucked cards are
never in a view (R-HIST-2: only the emailed history shows them).
"""

from __future__ import annotations

from stud.hand import STATUS_NAMES, StudHand
from stud.strength import hand_strength


def view(hand: StudHand, seat: int | None) -> dict[str, object]:
    result = hand.result
    shown = dict(result.shown) if result is not None else {}
    shown.update(hand.shown_by_choice)  # R-SHOW-3: an uncalled winner who chose to show
    seats: list[dict[str, object]] = []
    for i, player in enumerate(hand.players):
        down = hand.down[i]
        entry: dict[str, object] = {
            "seat": player.seat,
            "name": player.name,
            "stack": hand.stacks[i],
            "status": STATUS_NAMES[hand.status[i]],
            "bet": hand.bets[i],
            "in_pot": hand.antes[i] + hand.committed[i] + hand.bets[i],
            "up": list(hand.up[i]),
            "down_count": len(down),
        }
        if player.seat in shown:
            entry["shown"] = list(shown[player.seat])
        if seat is not None and player.seat == seat:
            entry["down"] = list(down)
            strength = None if hand.is_over else hand_strength(hand, seat)
            if strength is not None:
                entry["strength"] = strength.to_json()  # what their cards make so far
        seats.append(entry)
    snapshot: dict[str, object] = {
        "game": hand.config.game.value,
        "small_bet": hand.config.small_bet,
        "big_bet": hand.config.big_bet,
        "ante": hand.config.ante,
        "bring_in": hand.config.bring_in,
        "button": hand.button,
        "street": hand.street,
        "to_act": hand.to_act,
        "bring_in_seat": hand.bring_in_seat,
        "current_bet": hand.current_bet,
        "pot": hand.pot,
        "community_card": hand.community,
        "seats": seats,
        "is_over": hand.is_over,
        "legal_actions": [],
        "viewer": seat,
    }
    if seat is not None and hand.to_act == seat:
        snapshot["legal_actions"] = [
            {"kind": offer.kind.value, "amount": offer.amount, "adds": offer.adds}
            for offer in hand.legal_actions(seat)
        ]
    if result is not None:
        public = result.to_json()
        public.pop("mucked", None)
        public["mucked_seats"] = [s for s, _ in result.mucked]
        snapshot["result"] = public
    return snapshot
