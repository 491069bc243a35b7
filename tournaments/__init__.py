"""Tournaments (seed 004, RULES.md R-TOUR-1..9): registration, levels and breaks, the seat
draw, balancing and merging tables, eliminations and payouts. Play itself runs on the tables'
services: a tournament table is a `tables.Table` with `is_tournament` set."""
