#!/usr/bin/env python3
"""Check the room's fairness chain from its public API, and every hand you played against it.

The standard library only: no Django, nothing of the room's code (DESIGN.md "Fairness",
docs/fairness-chain.md). Run it against any room:

    python3 tools/verify_fairness_chain.py --url https://room.example
    python3 tools/verify_fairness_chain.py --url https://room.example --token API_TOKEN \
        --mirror ~/.stud-room-chain.json

It downloads every entry (GET /api/fairness/chain/entries/, paged) and the head
(GET /api/fairness/chain/), and checks:

1. the links: entries are numbered 0, 1, 2, ... with none missing; each names the hash of the
   one before (64 zeros for the first); each entry's hash is SHA-256 of
   "{index}|{hand_id}|{table_id}|{at}|{commitment}|{previous_hash}"; the head is the last;
2. with --mirror FILE, your own copy from an earlier run: every entry you held then is still
   there, unchanged (a room that rewrote an entry and every hash after it would still make a
   chain that links, but not the one you copied). The file is then updated to this copy;
3. with --token (your API token, /api/token/), every hand you played (GET /api/hands/): it has
   an entry; its commitment is the entry's; its 52 leaves hash to it; and each card you saw
   gives its leaf (SHA-256 of "{position}:{card}:{salt}") at the position the order of the deal
   gives it. Hands dealt before the card-by-card scheme: SHA-256 of "{deck}:{salt}".

It reports the first break (in chain order) and exits 1, or says all is well and exits 0.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GENESIS_HASH = "0" * 64
DECK_SIZE = 52


@dataclass(frozen=True)
class Break:
    """Where the check failed: the chain index it concerns (None: the head) and why."""

    index: int | None
    reason: str

    def __str__(self) -> str:
        where = "the head" if self.index is None else f"entry {self.index}"
        return f"first break at {where}: {self.reason}"


# --- the API -------------------------------------------------------------------------------------


class Room:
    def __init__(self, url: str, token: str | None = None, timeout: float = 30.0) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def get(self, path_or_url: str, *, authenticated: bool = False) -> Any:
        url = path_or_url if "://" in path_or_url else f"{self.url}{path_or_url}"
        request = urllib.request.Request(url, headers={"Accept": "application/json"})
        if authenticated and self.token:
            request.add_header("Authorization", f"Token {self.token}")
        with urllib.request.urlopen(request, timeout=self.timeout) as response:
            return json.loads(response.read().decode())

    def pages(self, path: str, *, authenticated: bool = False) -> Iterator[dict[str, Any]]:
        """Every row of a paged list, following `next` (the room may answer a bare list)."""
        page: Any = self.get(path, authenticated=authenticated)
        while True:
            if isinstance(page, list):
                yield from page
                return
            yield from page["results"]
            if not page.get("next"):
                return
            page = self.get(page["next"], authenticated=authenticated)


# --- the chain -----------------------------------------------------------------------------------


def entry_hash(entry: dict[str, Any]) -> str:
    line = (
        f"{entry['index']}|{entry['hand_id']}|{entry['table_id']}|{entry['at']}|"
        f"{entry['commitment']}|{entry['previous_hash']}"
    )
    return hashlib.sha256(line.encode()).hexdigest()


def link_breaks(entries: list[dict[str, Any]], head: dict[str, Any]) -> list[Break]:
    breaks: list[Break] = []
    previous = GENESIS_HASH
    for expected, entry in enumerate(entries):
        index = int(entry["index"])
        if index != expected:
            breaks.append(Break(expected, f"missing: entry {index} follows entry {expected - 1}"))
            break
        if entry["previous_hash"] != previous:
            breaks.append(
                Break(index, "it does not name the hash of the entry before it")
                if index
                else Break(index, "the first entry does not start from 64 zeros")
            )
        if entry_hash(entry) != entry["entry_hash"]:
            breaks.append(Break(index, "its hash is not the hash of its contents (rewritten)"))
        previous = entry["entry_hash"]
    if int(head["length"]) != len(entries) or head["head_hash"] != previous:
        breaks.append(Break(None, "the head is not the last entry of the chain served"))
    return breaks


def mirror_breaks(entries: list[dict[str, Any]], mirror: list[dict[str, Any]]) -> list[Break]:
    """Entries of your earlier copy gone or changed since."""
    served = {int(entry["index"]): entry for entry in entries}
    breaks = []
    for kept in mirror:
        index = int(kept["index"])
        now = served.get(index)
        if now is None:
            breaks.append(Break(index, "it was in your copy and is gone (deleted)"))
        elif now != kept:
            changed = sorted(key for key in kept if now.get(key) != kept[key])
            breaks.append(Break(index, f"it differs from your copy ({', '.join(changed)})"))
    return breaks


# --- the hands you played ------------------------------------------------------------------------


def deal_positions(deal: dict[str, Any]) -> dict[tuple[int | None, int, str], int]:
    """(seat, index, face) -> position in the committed deck, by the order of the deal
    (R-DEAL-1..5): third street down, down, door one at a time from the dealer's left; then a
    burn and a card each per street; a short seventh street from the reshuffled pile."""
    order = [int(seat) for seat in deal["order"]]
    n = len(order)
    where: dict[tuple[int | None, int, str], int] = {}
    for i, seat in enumerate(order):
        where[(seat, 0, "down")] = i
        where[(seat, 1, "down")] = n + i
        where[(seat, 2, "up")] = 2 * n + i
    position = 3 * n
    burns: list[int] = []
    for street, seats in deal["streets"]:
        street = int(street)
        burns.append(position)
        position += 1
        if street < 7:
            for seat in seats:
                where[(int(seat), street - 1, "up")] = position
                position += 1
        elif deal["river"] == "down":
            for seat in seats:
                where[(int(seat), 6, "down")] = position
                position += 1
        else:
            pile = [*burns, *range(position, DECK_SIZE)]
            random.Random(int(deal["reshuffle_seed"])).shuffle(pile)
            if deal["river"] == "community":
                where[(None, 0, "community")] = pile[0]
            else:
                for k, seat in enumerate(seats):
                    where[(int(seat), 6, "down")] = pile[k]
    return where


def hand_problem(fairness: dict[str, Any], commitment: str) -> str | None:
    """Why the hand's fairness data do not prove its deck against the chain's commitment."""
    if fairness["commitment"] != commitment:
        return "the hand's commitment is not the one the chain recorded at the deal"
    if int(fairness["scheme"]) == 1:
        if fairness.get("deck_text") is None:
            return None  # the room does not reveal old decks: only the commitment is checked
        whole = f"{fairness['deck_text']}:{fairness['salt']}"
        if hashlib.sha256(whole.encode()).hexdigest() != commitment:
            return "its revealed deck does not hash to the commitment"
        return None
    leaves = fairness["leaves"]
    if len(leaves) != DECK_SIZE:
        return "it does not give 52 leaves"
    if hashlib.sha256("".join(leaves).encode()).hexdigest() != commitment:
        return "its deck (the 52 leaves) does not hash to the commitment"
    where = deal_positions(fairness["deal"])
    for card in fairness["revealed"]:
        position = int(card["position"])
        seat = None if card["seat"] is None else int(card["seat"])
        if where.get((seat, int(card["index"]), card["face"])) != position:
            return f"{card['card_text']} is not at the place the deal gives it"
        leaf = hashlib.sha256(f"{position}:{card['card_text']}:{card['salt']}".encode())
        if leaf.hexdigest() != leaves[position]:
            return f"{card['card_text']} (place {position}) does not give its leaf"
    return None


def hand_breaks(room: Room, entries: list[dict[str, Any]]) -> tuple[list[Break], int]:
    by_hand = {int(entry["hand_id"]): entry for entry in entries}
    breaks = []
    checked = 0
    for summary in room.pages("/api/hands/", authenticated=True):
        hand_id = int(summary["id"])
        entry = by_hand.get(hand_id)
        if entry is None:
            breaks.append(Break(None, f"hand #{hand_id}, which you played, has no entry"))
            continue
        detail = room.get(f"/api/hands/{hand_id}/", authenticated=True)
        problem = hand_problem(detail["fairness"], entry["commitment"])
        checked += 1
        if problem:
            breaks.append(Break(int(entry["index"]), f"hand #{hand_id}: {problem}"))
    return breaks, checked


# --- the command ---------------------------------------------------------------------------------


def first_break(breaks: list[Break]) -> Break | None:
    if not breaks:
        return None
    return min(breaks, key=lambda b: (b.index is None, b.index or 0))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="the room, e.g. https://room.example")
    parser.add_argument("--token", help="your API token: check every hand you played too")
    parser.add_argument("--mirror", type=Path, help="your copy of the chain, kept between runs")
    args = parser.parse_args(argv)
    room = Room(args.url, args.token)
    try:
        entries = list(room.pages("/api/fairness/chain/entries/?page_size=1000"))
        head = room.get("/api/fairness/chain/")
        breaks = link_breaks(entries, head)
        if args.mirror is not None and args.mirror.exists():
            breaks += mirror_breaks(entries, json.loads(args.mirror.read_text()))
        checked = 0
        if args.token:
            found, checked = hand_breaks(room, entries)
            breaks += found
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"could not read the chain from {room.url}: {error}", file=sys.stderr)
        return 2
    found_break = first_break(breaks)
    if found_break is not None:
        print(found_break)
        if len(breaks) > 1:
            print(f"({len(breaks) - 1} more problem(s) after it)")
        return 1
    if args.mirror is not None:
        args.mirror.write_text(json.dumps(entries))
    hands = f"; {checked} hand(s) you played check against it" if args.token else ""
    print(f"the chain holds: {len(entries)} entries, head {head['head_hash']}{hands}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
