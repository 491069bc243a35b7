// The countdowns on the felt. Deadlines are local monotonic times (performance.now() plus the
// server's `ms_left` at receipt, see store.js), so a client whose wall clock is off still shows
// the time the server gives.

// How often the countdown redraws between frames.
export const TICK_MS = 200;
// Under this much time left the clock turns to its warning colour.
export const LOW_TIME_MS = 3_000;
// An ante prompt stays this long after its deadline before it goes.
export const ANTE_GRACE_MS = 1_000;

export function monotonicNow() {
  return performance.now();
}

// Milliseconds left until a local monotonic deadline (0 when past or none).
export function msLeft(deadline, now = monotonicNow()) {
  return deadline === null || deadline === undefined ? 0 : Math.max(0, deadline - now);
}

// A local monotonic deadline as the wall-clock time the viewer reads ("held until 14:02:10").
export function wallTimeOf(deadline, now = monotonicNow()) {
  return new Date(Date.now() + (deadline - now));
}

// R-ANTE-1: the seconds left to say "I'm in", in the prompt.
export function drawAnteCountdown(prompt, store, now = monotonicNow()) {
  const text = prompt.querySelector("[data-ante-countdown]");
  if (text && store.anteDeadline !== null) text.textContent = `${Math.ceil(msLeft(store.anteDeadline, now) / 1000)}s`;
}

// Redraws every countdown on the felt from the store's turn deadline; after the clock, the
// player's time bank (R-BET-7), marked "bank" and measured against the bank's length.
export function drawCountdowns(felt, store, now = monotonicNow()) {
  const bank = store.timeBankMs;
  const full = bank || store.actionClockMs();
  for (const text of felt.querySelectorAll("[data-countdown]")) {
    const running = store.deadline !== null;
    const left = msLeft(store.deadline, now);
    const seconds = `${Math.ceil(left / 1000)}s`;
    text.textContent = running ? (bank ? `bank ${seconds}` : seconds) : "";
    const bar = text.parentElement.querySelector(".bar");
    bar.style.width = `${running ? Math.min(100, (100 * left) / full) : 0}%`;
    text.parentElement.classList.toggle("low", left < LOW_TIME_MS);
    text.parentElement.classList.toggle("bank", Boolean(bank));
  }
}
