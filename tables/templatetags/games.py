"""`{{ table.game|game_name }}` shows a game as the room names it: "Stud Hi/Lo", "Razz".

The names are the variant's (stud/variant.py); no template names a game itself."""

from __future__ import annotations

from django import template

from stud.variant import VARIANTS, Game

register = template.Library()


@register.filter
def game_name(game: str) -> str:
    """The room's full name: "Seven Card Stud", "Stud Hi/Lo", "Razz"."""
    try:
        return VARIANTS[Game(game)].name
    except ValueError:
        return str(game)


@register.filter
def game_short(game: str) -> str:
    """The short name, for tight columns: "Stud", "Stud Hi/Lo", "Razz"."""
    try:
        return VARIANTS[Game(game)].short_name
    except ValueError:
        return str(game)


@register.simple_tag
def all_games() -> list[tuple[str, str]]:
    """(value, short name) of every game, in the order of R-GAME-1: filters' options."""
    return [(variant.game.value, variant.short_name) for variant in VARIANTS.values()]


@register.simple_tag
def all_game_names() -> str:
    """Every game's room name in one phrase: "Seven Card Stud, Stud Hi/Lo and Razz"."""
    names = [variant.name for variant in VARIANTS.values()]
    return ", ".join(names[:-1]) + " and " + names[-1]
