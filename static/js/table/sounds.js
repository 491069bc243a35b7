// The table's sounds, made with WebAudio (no sound file): the player's turn, each of the last
// three seconds of their clock, chips, cards. Off by the player's "Sounds" switch (kept in the
// browser), and off unless switched on where the system asks for reduced motion. A sound
// never waits for anything and nothing waits for it: the frame is drawn first.

const SOUNDS_KEY = "stud-room-sounds";

// name -> the notes played: [frequency Hz, start s, length s, wave, volume]
const PATTERNS = {
  turn: [[660, 0, 0.12, "sine", 0.2], [880, 0.13, 0.16, "sine", 0.2]],
  tick: [[1200, 0, 0.05, "square", 0.06]],
  chips: [[2400, 0, 0.03, "triangle", 0.08], [2000, 0.04, 0.03, "triangle", 0.07], [2600, 0.08, 0.03, "triangle", 0.06]],
  card: [[500, 0, 0.05, "sawtooth", 0.03]],
};

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export class Sounds {
  // trace: an element whose data-last-sound / data-sounds-played say what was played.
  constructor(trace) {
    this.trace = trace;
    this.context = null;
    // Browsers start audio only after a gesture, and warn at each try before one: nothing is
    // made (no AudioContext) until the player's first click, tap or key on the page; the
    // sounds before it are skipped.
    this.unlocked = false;
    const saved = window.localStorage.getItem(SOUNDS_KEY);
    this.on = saved === null ? !reducedMotion() : saved === "on";
    const open = () => {
      this.unlocked = true;
      document.removeEventListener("pointerdown", open);
      document.removeEventListener("keydown", open);
      if (this.on) this.audio();
    };
    document.addEventListener("pointerdown", open);
    document.addEventListener("keydown", open);
  }

  setOn(on) {
    this.on = on;
    try {
      window.localStorage.setItem(SOUNDS_KEY, on ? "on" : "off");
    } catch {
      // Storage refused: the choice lasts as long as the page.
    }
  }

  audio() {
    if (!this.unlocked) return null;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!this.context && Context) this.context = new Context();
    if (this.context && this.context.state === "suspended") this.context.resume().catch(() => {});
    return this.context;
  }

  play(name) {
    const notes = PATTERNS[name];
    if (!this.on || !notes) return;
    const context = this.audio();
    if (!context) return;
    this.trace.dataset.lastSound = name;
    this.trace.dataset.soundsPlayed = String(Number(this.trace.dataset.soundsPlayed || 0) + 1);
    const start = context.currentTime;
    for (const [frequency, at, length, wave, volume] of notes) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = wave;
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(volume, start + at);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(start + at);
      oscillator.stop(start + at + length + 0.02);
    }
  }
}
