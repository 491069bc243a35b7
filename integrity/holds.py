"""Holds staff put on a player (issue #25): what the table services ask before seating
someone. A leaf like integrity.chain: it reads integrity's own rows only."""
