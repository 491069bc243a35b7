"""Names shown to other players: what is refused and when two names look the same (issue #11).

A player is shown at the table, in chat and in histories by their display name, or by their
username when they have none. So both are one name space: no name may look like another
player's name, nor like the room's own staff.

- Refused outright: invisible and formatting characters (Unicode category Cf: zero-width
  space and joiners, bidi controls, ...), control characters, private-use and unassigned code
  points, blank letters that draw nothing (Hangul fillers, braille blank, variation
  selectors), runs of spaces, and the reserved words below used as a word of the name.
- Two names clash when their keys meet. A name has three keys (each NFKC-normalised, each
  character replaced by the representative of its class of Unicode confusables, so Cyrillic
  "а" and Latin "a", or "l", "1", "I" and "|", become one character):
    * the folded key, casefolded first: "Alice" = "alice" = "ALICE", Cyrillic "аlice" too;
    * the lookalike key, casefolded after the replacement: capital i and small L are one
      class, so "AIice" = "Alice" = "alice";
    * the capitals key, the same taken of the name in capitals: capital O and zero are one
      class, so "B0B" = "BOB" = "bob".
  The classes of confusables come from the Unicode confusables data as shipped by the
  `confusable_homoglyphs` package (one-character lookalikes, joined into classes).

What this does not catch: lookalikes made of several characters ("rn" for "m").
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from confusable_homoglyphs.confusables import confusables_data

# Words that only the room's own people may be seen as. A name is refused when one of its
# words (letters and digits between other characters) is one of these, compared by key:
# "Staff", "ADMIN", "Dealer Dan", "room-support" and "ѕupport" (Cyrillic s) all are.
RESERVED_WORDS = (
    "admin",
    "administrator",
    "cashier",
    "dealer",
    "floor",
    "host",
    "manager",
    "moderator",
    "official",
    "room",
    "staff",
    "support",
    "system",
)

# Characters drawn as nothing that Unicode does not put in category Cf.
BLANK_LETTERS = frozenset(
    "\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f"
    + "".join(chr(code) for code in range(0xFE00, 0xFE10))
    + "".join(chr(code) for code in range(0xE0100, 0xE01F0))
)
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
# A key is stored in an indexed column; a name longer than this once normalised is refused.
KEY_MAX_LENGTH = 200


class NameRefused(ValueError):
    """A name the room will not show; the message says why and is fit for the player."""


@cache
def _confusable_classes() -> dict[str, str]:
    """Each confusable character mapped to one representative of its class (the smallest)."""
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.setdefault(char, char) != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    for char, homoglyphs in confusables_data.items():
        for homoglyph in homoglyphs:
            # Right-to-left glyphs are stored between left-to-right marks.
            glyph = homoglyph["c"].strip("\u200e\u200f")
            if len(char) == 1 and len(glyph) == 1:
                first, second = root(char), root(glyph)
                if first != second:
                    parent[max(first, second)] = min(first, second)
    return {char: root(char) for char in parent}


def _skeleton(text: str) -> str:
    classes = _confusable_classes()
    return "".join(classes.get(char, char) for char in text)


def _normalised(name: str) -> str:
    return unicodedata.normalize("NFKC", name)


def name_keys(name: str) -> frozenset[str]:
    """The keys under which `name` is held: two names clash when they share a key."""
    text = _normalised(name)
    folded = _normalised(_skeleton(_normalised(text.casefold())))
    lookalike = _normalised(_skeleton(_normalised(_skeleton(text).casefold())))
    capitals = _normalised(_skeleton(_normalised(_skeleton(text.upper()).casefold())))
    return frozenset({folded, lookalike, capitals})


def _refused_character(char: str) -> bool:
    category = unicodedata.category(char)
    if category in REFUSED_CATEGORIES or char in BLANK_LETTERS:
        return True
    return category == "Zs" and char != " "


def _word_keys(text: str) -> set[str]:
    words = re.split(r"[\W_]+", text)
    return {key for word in words if word for key in name_keys(word)}


@cache
def _reserved_keys() -> frozenset[str]:
    return frozenset(key for word in RESERVED_WORDS for key in name_keys(word))


def name_check(name: str, *, what: str = "A name") -> None:
    """Refuse a name that hides characters or passes for the room's staff (NameRefused)."""
    text = _normalised(name)
    if any(_refused_character(char) for char in text):
        raise NameRefused(
            f"{what} cannot contain invisible, formatting or control characters "
            "(such as a zero-width space or a direction mark)."
        )
    if text != text.strip() or "  " in text:
        raise NameRefused(f"{what} cannot start or end with a space or have two in a row.")
    if len(text) > KEY_MAX_LENGTH:
        raise NameRefused(f"{what} is too long.")
    reserved = _word_keys(text) & _reserved_keys()
    if reserved:
        raise NameRefused(
            f"{what} cannot contain words kept for the room's staff ({', '.join(RESERVED_WORDS)})."
        )
