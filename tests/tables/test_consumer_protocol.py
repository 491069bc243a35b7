"""tables/realtime/commands.py: every client message is decoded into its declared command or
refused with an error code (issue #23: the commands are msgspec declarations)."""

from __future__ import annotations

import json

import pytest

from stud import ActionKind
from tables.realtime.commands import (
    COMMANDS,
    MESSAGE_TYPES,
    WATCHER_COMMANDS,
    Act,
    Chat,
    ImIn,
    Sit,
    Snapshot,
    command_name,
    command_tag,
    parse_frame,
)
from tables.realtime.consumer import COMMAND_SERVICES
from tables.realtime.protocol import CHAT_MAX_CHARS, MAX_FRAME_BYTES, ProtocolError, RateLimiter


def _code(text: str | None, raw: bytes | None = None) -> str:
    with pytest.raises(ProtocolError) as refused:
        parse_frame(text, raw)
    return refused.value.code


def test_an_action_parses_with_its_seq_and_amount():
    command = parse_frame('{"type": "act", "seq": 7, "kind": "raise", "amount": 40, "ref": "a1"}')
    assert command == Act(seq=7, kind=ActionKind.RAISE, amount=40, ref="a1")


def test_an_action_may_name_its_hand():
    command = parse_frame('{"type": "act", "seq": 7, "hand_id": 12, "kind": "check"}')
    assert command == Act(seq=7, kind=ActionKind.CHECK, amount=0, hand_id=12)


# A message of each type with its required fields (the protocol's whole table, issue #12).
ONE_OF_EACH = {
    "snapshot": {},
    "act": {"seq": 1, "kind": "call"},
    "sit": {"buy_in": 2000},
    "add_chips": {"amount": 500},
    "sit_out": {},
    "sit_in": {},
    "leave": {},
    "im_in": {},
    "join_waiting_list": {},
    "leave_waiting_list": {},
    "show": {"hand_id": 4},
    "auto_muck": {"on": True},
    "mute": {"player_id": 9, "on": True},
    "chat": {"text": "nice hand"},
    "ping": {},
}


def test_each_message_type_parses_into_its_command_and_names_it_in_the_reply():
    """One table of commands: the type a client sends is the command its reply names."""
    assert set(MESSAGE_TYPES) == set(ONE_OF_EACH)
    for name, fields in ONE_OF_EACH.items():
        command = parse_frame(json.dumps({"type": name, **fields}))
        assert command_name(command) == name


def test_every_command_a_player_sends_reaches_a_service():
    """The consumer answers snapshot, ping and chat itself; every other command calls the
    one service its row names, and a visitor may send only what watching needs."""
    answered_by_the_consumer = {"snapshot", "ping", "chat"}
    for command in COMMANDS:
        has_service = command in COMMAND_SERVICES
        assert has_service is (command_tag(command) not in answered_by_the_consumer), command
    assert {command_tag(command) for command in WATCHER_COMMANDS} == {"snapshot", "ping"}


def test_simple_commands_parse():
    assert parse_frame('{"type": "snapshot"}') == Snapshot()
    assert parse_frame('{"type": "im_in", "ref": 3}') == ImIn(ref=3)
    assert parse_frame('{"type": "sit", "seat": 3, "buy_in": 2000}') == Sit(seat=3, buy_in=2000)


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"kind": "call"}', "bad_message"),
        ('{"type": "shout"}', "unknown_type"),
        ('{"type": "act", "kind": "call"}', "missing_field"),
        ('{"type": "act", "seq": "3", "kind": "call"}', "bad_field"),
        ('{"type": "act", "seq": true, "kind": "call"}', "bad_field"),
        ('{"type": "act", "seq": 3, "kind": "shove"}', "bad_field"),
        ('{"type": "act", "seq": 3, "kind": "bet", "amount": -5}', "bad_field"),
        ('{"type": "act", "seq": 3, "kind": "bet", "amount": 1.5}', "bad_field"),
        ('{"type": "act", "seq": 3, "kind": "call", "seat": 2}', "forbidden_field"),
        ('{"type": "leave", "user": 9}', "forbidden_field"),
        ('{"type": "act", "seq": 3, "kind": "call", "colour": 2}', "unknown_field"),
        ('{"type": "sit", "seat": 9, "buy_in": 100}', "bad_field"),
        ('{"type": "add_chips", "amount": 0}', "bad_field"),
        ('{"type": "chat", "text": 5}', "bad_field"),
        ('{"type": "chat", "text": "   "}', "bad_field"),
        ('{"type": "chat", "text": "bell\\u0007"}', "bad_field"),
        ('{"type": "snapshot", "ref": {"a": 1}}', "bad_field"),
    ],
)
def test_a_malformed_message_is_refused_with_a_code(frame, code):
    assert _code(frame) == code


def test_a_binary_frame_is_refused():
    assert _code(None, b'{"type": "snapshot"}') == "bad_frame"


def test_an_oversized_frame_is_refused_before_parsing():
    frame = json.dumps({"type": "chat", "text": "x" * MAX_FRAME_BYTES})
    assert _code(frame) == "too_large"


def test_chat_is_length_limited_and_html_escaped():
    assert _code(json.dumps({"type": "chat", "text": "x" * (CHAT_MAX_CHARS + 1)})) == (
        "chat_too_long"
    )
    command = parse_frame(json.dumps({"type": "chat", "text": '<b>nice</b> & "hand"'}))
    assert command == Chat(text="&lt;b&gt;nice&lt;/b&gt; &amp; &quot;hand&quot;")


def test_the_rate_limiter_refuses_a_flood_then_calls_it_abusive():
    now = [0.0]
    limiter = RateLimiter(rate=4, burst=4, abuse_limit=5, clock=lambda: now[0])
    assert all(limiter.admit() for _ in range(4))
    assert not limiter.admit()
    assert not limiter.abusive
    for _ in range(5):
        limiter.admit()
    assert limiter.abusive


def test_the_rate_limiter_lets_a_steady_player_through():
    now = [0.0]
    limiter = RateLimiter(rate=4, burst=4, abuse_limit=5, clock=lambda: now[0])
    for _ in range(100):
        now[0] += 0.3
        assert limiter.admit()


def test_issue_23_a_field_out_of_its_declared_range_is_named_in_the_refusal():
    """The ranges are the declaration's (tables/realtime/commands.py): the refusal says which
    field and what it must be, and echoes the ref."""
    with pytest.raises(ProtocolError) as refused:
        parse_frame('{"type": "add_chips", "amount": 0, "ref": "r1"}')
    assert refused.value.code == "bad_field" and refused.value.ref == "r1"
    assert "`$.amount`" in refused.value.message and ">= 1" in refused.value.message


def test_issue_23_a_forbidden_field_is_told_before_a_missing_one():
    """The documented order: a message naming a seat is refused for that, whatever else is
    wrong with it; `sit` alone may name its seat."""
    assert _code('{"type": "act", "seat": 2}') == "forbidden_field"
    assert _code('{"type": "sit", "seat": 2, "user": 5, "buy_in": 100}') == "forbidden_field"
    assert _code('{"type": "sit", "seat": 2}') == "missing_field"
