"""What accounts tells the apps built on it, without knowing them (accounts uses no other app).

`auto_ante_turned_on` is sent after the commit of a settings change that switched "I'm in"
(auto-post ante, R-ANTE-1) on, with `player_id`: a table waiting for that player's "I'm in"
must stop waiting (the tables app listens)."""

from __future__ import annotations

from django.dispatch import Signal

auto_ante_turned_on = Signal()

# Sent after the commit of a break or self-exclusion a player took, or of an account closed
# (issue #26), with `player_id`: the tables cash them out (at the end of any hand they are
# in), the tournaments unregister them from those not started.
play_break_taken = Signal()
