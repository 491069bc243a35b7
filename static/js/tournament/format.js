// What the tournament pages write: the level, the clock, places. Pure functions of a
// tournament snapshot (tournaments/selectors.py, docs/protocol.md "Tournaments").
import { chipCount, dollars } from "../money.js";

export const IN_PLAY = new Set(["running", "on_break", "paused"]);

// 754_000 -> "12:34"; an hour or more -> "1:02:03".
export function clockText(ms) {
  const total = Math.max(0, Math.ceil((Number(ms) || 0) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  if (hours) return `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`;
  return `${minutes}:${seconds}`;
}

export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
}

export function limitsText(level) {
  return level ? `${chipCount(level.small_bet)}/${chipCount(level.big_bet)}` : "";
}

export function anteText(level) {
  if (!level) return "";
  const dealer = level.dealer_only_ante ? " (dealer only)" : "";
  return `${chipCount(level.ante)}${dealer} · bring-in ${chipCount(level.bring_in)}`;
}

// "Level 3 · 25/50 · ante 25 (dealer only) · bring-in 10"
export function levelText(level) {
  if (!level) return "";
  return `Level ${level.number} · ${limitsText(level)} · ante ${anteText(level)}`;
}

// "30/60, ante 10" (the Next of a bar)
export function levelBriefText(level) {
  if (!level) return "";
  return `${limitsText(level)}, ante ${chipCount(level.ante)}${level.dealer_only_ante ? " (dealer only)" : ""}`;
}

export function nextLevelText(tournament) {
  return levelBriefText(tournament.next_level);
}

// The clock's deadlines as local monotonic times from the snapshot's ms_left at receipt.
export function clockDeadlines(tournament, now) {
  const clock = tournament.clock || {};
  const at = (ms) => (typeof ms === "number" ? now + ms : null);
  return {
    level: at(clock.level_ms_left),
    break: at(clock.break_ms_left),
    starts: at(clock.starts_ms_left),
  };
}

export const EQUAL_DEALS_WAIT = "Level ends when everyone has dealt equally";

// What the clock shows now: {label, time, mode} (mode: waiting, level, break, paused, over).
export function clockNow(tournament, deadlines, now) {
  const clock = tournament.clock || {};
  const left = (deadline) => Math.max(0, deadline - now);
  switch (tournament.status) {
    case "running":
      if (clock.level_timer_expired) {
        // R-TOUR-6: no countdown (the timer has run out, the level has not): the words alone.
        return { label: EQUAL_DEALS_WAIT, time: "", mode: "level" };
      }
      return {
        label: "Time left in level",
        time: deadlines.level === null ? "—" : clockText(left(deadlines.level)),
        mode: "level",
      };
    case "on_break":
      return {
        label: "Break: the next level starts in",
        time: deadlines.break === null ? "—" : clockText(left(deadlines.break)),
        mode: "break",
      };
    case "paused": {
      const ms = clock.on_break ? clock.break_ms_left : clock.level_ms_left;
      return { label: "Paused by the tournament director", time: clockText(ms || 0), mode: "paused" };
    }
    case "finished":
      return { label: "Finished", time: "", mode: "over" };
    case "cancelled":
      return { label: "Cancelled", time: "", mode: "over" };
    default:
      if (deadlines.starts !== null) {
        return { label: "Starts in", time: clockText(left(deadlines.starts)), mode: "waiting" };
      }
      if (tournament.start_when_registered) {
        return {
          label: `Starts when ${tournament.start_when_registered} have registered`,
          time: `${tournament.entrants}/${tournament.start_when_registered}`,
          mode: "waiting",
        };
      }
      return { label: "Starts when the director starts it", time: "", mode: "waiting" };
  }
}

// The level of the structure numbered `number` (null past the last one stored).
export function levelOf(tournament, number) {
  return (tournament.levels || []).find((l) => l.number === number) || null;
}

// A tournament table's bar (R-TOUR-5, R-TOUR-6): the table's own level, the one its hand in
// play or its next hand is dealt at (the snapshot's tables[].level), which is not always the
// clock's: past an equal-deals level's timer a table done with it deals the next level while
// another still deals it, and a hand in play at a level's end finishes at its own level.
// `shown`: clockNow's answer. Returns {level, next, label, time}: level and next are levels
// (null: none); time "" means no time to show (the label says why).
export function tableBar(tournament, tableId, shown) {
  const clock = tournament.clock || {};
  const here = (tournament.tables || []).find((t) => t.table_id === tableId);
  const number = here ? here.level : clock.level;
  const level = levelOf(tournament, number) || tournament.level || tournament.next_level;
  const next = level ? levelOf(tournament, level.number + 1) : null;
  const bar = { level, next, label: shown.label, time: shown.time };
  if (shown.mode === "paused" && clock.level_timer_expired && !clock.on_break) bar.time = "";
  if (shown.mode !== "level") return bar;
  bar.label = "Time left";
  if (!here || here.level === clock.level) {
    if (clock.level_timer_expired) {
      bar.label = EQUAL_DEALS_WAIT; // dealing the level on until its players have dealt equally
      bar.time = "";
    }
    return bar;
  }
  if (here.level < clock.level) {
    // the hand in play finishes at this table's level; the next is dealt at the clock's
    bar.label = `Level ${clock.level} from the next hand; time left`;
    return bar;
  }
  // Done with the equal-deals level before the other tables: this level's timer starts
  // when every table is done (or a break comes first, which this table waits for).
  const clockLevel = levelOf(tournament, clock.level);
  if (clockLevel && clockLevel.break_minutes) {
    bar.label = "Waiting for the other tables to deal equally, then a break";
    bar.time = "";
  } else {
    bar.label = "Time left, from when every table has dealt equally";
    bar.time = level ? clockText(level.minutes * 60_000) : "";
  }
  return bar;
}

// The viewer's own line of the standings (null: not registered).
export function viewerEntry(tournament, playerId) {
  if (!playerId) return null;
  return tournament.standings.find((s) => s.player_id === playerId) || null;
}

// The add-on this viewer may buy now (R-TOUR-1), or null: on offer (the snapshot's
// add_on_open: until the first hand of add_on_until_level is dealt, tournaments.selectors),
// and the viewer entered, still playing and without one. `lastChance`: the break (paused
// or not) before the level whose first hand closes it.
export function addOnOffer(tournament, playerId) {
  const mine = viewerEntry(tournament, playerId);
  if (!tournament.add_on_open || !mine || mine.add_on || mine.place) return null;
  const until = tournament.add_on_until_level;
  const next = tournament.next_level;
  const onBreak = tournament.status === "on_break" || Boolean((tournament.clock || {}).on_break);
  const lastChance = onBreak && Boolean(next) && next.number >= until;
  return {
    text: `${chipCount(tournament.add_on_chips)} chips for ${dollars(tournament.add_on_price)}`,
    until: lastChance
      ? `closes when level ${until}'s first hand is dealt`
      : `until level ${until}`,
    lastChance,
  };
}

export function movedText(frame) {
  const table = frame.table_number ? `table ${frame.table_number}` : "a new table";
  return `You were moved to ${table}, seat ${frame.seat}.`;
}

export function eliminatedText(frame, dollars) {
  let prize = "";
  if (frame.prize && frame.prize_at_end) {
    prize = ` Your prize of ${dollars(frame.prize)} is paid to your wallet when the tournament ends.`;
  } else if (frame.prize) {
    prize = ` You win ${dollars(frame.prize)}.`;
  }
  return `You finished ${ordinal(frame.place)}.${prize}`;
}
