"""What players do (Action, TimeOut), what they may do (LegalAction), and what the hand says
happened (Event)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class IllegalAction(ValueError):
    """An action the hand does not offer; the hand is left exactly as it was."""


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BRING_IN = "bring_in"
    COMPLETE = "complete"
    BET = "bet"
    RAISE = "raise"


@dataclass(frozen=True, slots=True)
class Action:
    """``amount``: the seat's total bet on this street after the action (the "to" amount);
    0 for fold and check. For a call it is the to-amount too; a call for more than the seat
    has is accepted and capped at all-in."""

    seat: int
    kind: ActionKind
    amount: int = 0

    def to_json(self) -> dict[str, object]:
        return {"type": "action", "seat": self.seat, "kind": self.kind.value, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class TimeOut:
    """R-TIME-1: the seat to act ran out of time (or is disconnected); ``protected`` says
    whether they have an all-in protection left."""

    seat: int
    protected: bool

    def to_json(self) -> dict[str, object]:
        return {"type": "timeout", "seat": self.seat, "protected": self.protected}


@dataclass(frozen=True, slots=True)
class Show:
    """R-SHOW-3: the winner of a hand nobody called chose to show their cards."""

    seat: int

    def to_json(self) -> dict[str, object]:
        return {"type": "show", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Abandon:
    """The seat's player left mid-hand: their hand was folded at once, out of turn if need be
    (a bring-in still owed is posted first, R-BRING-2)."""

    seat: int

    def to_json(self) -> dict[str, object]:
        return {"type": "abandon", "seat": self.seat}


LogRecord = Action | TimeOut | Show | Abandon


def record_from_json(data: Mapping[str, object]) -> LogRecord:
    """One entry of a hand's log (see ``StudHand.log``) from its JSON form."""
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ValueError(f"a log record needs an integer seat: {data!r}")
    if data.get("type") == "timeout":
        return TimeOut(seat=seat, protected=bool(data.get("protected")))
    if data.get("type") == "show":
        return Show(seat=seat)
    if data.get("type") == "abandon":
        return Abandon(seat=seat)
    if data.get("type") == "action":
        amount = data.get("amount", 0)
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise ValueError(f"an action needs an integer amount: {data!r}")
        return Action(seat=seat, kind=ActionKind(str(data.get("kind"))), amount=amount)
    raise ValueError(f"not a log record: {data!r}")


@dataclass(frozen=True, slots=True)
class LegalAction:
    """An action offered: ``amount`` is the to-amount (0 for fold and check), ``adds`` the
    chips it puts in."""

    kind: ActionKind
    amount: int
    adds: int
    # for_seat's actions by seat (not part of the value: no init, repr, equality or hash)
    _actions: dict[int, Action] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def for_seat(self, seat: int) -> Action:
        """This offer as ``seat``'s action. Actions are immutable values: the same one is
        handed out again (the engine hands out the same offers again too, so a random hand's
        turn costs one dictionary look-up here)."""
        action = self._actions.get(seat)
        if action is None:
            action = self._actions[seat] = Action(seat, self.kind, self.amount)
        return action


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``visible_to`` None: public; else only that seat may see it
    (its own down cards). Kinds and payloads are listed in docs/engine-contract.md."""

    kind: str
    payload: dict[str, object] = field(default_factory=dict)
    visible_to: int | None = None

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "payload": self.payload, "visible_to": self.visible_to}


_new_object = object.__new__


class _EventSlots:
    """An ``Event`` under construction: the same slots, in the same order, but writable.

    The engine makes some thirty events a hand. It fills one of these with plain attribute
    stores and then makes it an ``Event`` by assigning ``__class__`` (allowed between classes
    of the same layout): a third of the cost of the dataclass' frozen ``__init__``, and half
    that of setting the frozen slots through their descriptors. The result is an ``Event`` in
    every respect (``type(event) is Event``, equality, repr, immutability)."""

    __slots__ = ("kind", "payload", "visible_to")

    kind: str
    payload: dict[str, object]
    visible_to: int | None


def new_event(kind: str, payload: dict[str, object], visible_to: int | None = None) -> Event:
    """``Event(kind, payload, visible_to)``, the same frozen value, built cheaply (see
    ``_EventSlots``)."""
    event = _EventSlots()
    event.kind = kind
    event.payload = payload
    event.visible_to = visible_to
    event.__class__ = Event  # type: ignore[assignment]
    return event  # type: ignore[return-value]


# The two classes must keep one layout (a changed Event fails here, at import, not mid-hand).
if type(new_event("check", {})) is not Event or Event.__slots__ != _EventSlots.__slots__:
    raise TypeError("Event and _EventSlots must have the same slots")  # pragma: no cover
