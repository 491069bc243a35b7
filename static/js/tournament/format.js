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

export function nextLevelText(tournament) {
  const next = tournament.next_level;
  if (!next) return "";
  return `${limitsText(next)}, ante ${chipCount(next.ante)}${next.dealer_only_ante ? " (dealer only)" : ""}`;
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

// What the clock shows now: {label, time, mode} (mode: waiting, level, break, paused, over).
export function clockNow(tournament, deadlines, now) {
  const clock = tournament.clock || {};
  const left = (deadline) => Math.max(0, deadline - now);
  switch (tournament.status) {
    case "running":
      if (clock.level_timer_expired) {
        return { label: "Level ends when everyone has dealt equally", time: "0:00", mode: "level" };
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
