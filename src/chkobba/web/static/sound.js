// Sound effects, made on the spot with the Web Audio API (no sound files): a card laid, a
// capture, a sweep, the deal, the table collected, the player's turn, the end of a game.
// Off until the player turns them on with the header's toggle; the choice is remembered.
import { beforeLang } from "./cards.js";
import { t, onLangChange } from "./i18n.js";

const KEY = "chkobba.sound";
let ctx = null;

export function soundOn() {
  return localStorage.getItem(KEY) === "on";
}

function audio() {
  // Browsers let a page make sound only after a gesture: the toggle's click creates it.
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

// A short burst of filtered noise: the snap of a card on the table.
function snap(a, at, level = 0.35, pitch = 2200) {
  const length = Math.floor(a.sampleRate * 0.06);
  const buffer = a.createBuffer(1, length, a.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  const src = a.createBufferSource();
  src.buffer = buffer;
  const filter = a.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = pitch;
  const gain = a.createGain();
  gain.gain.value = level;
  src.connect(filter).connect(gain).connect(a.destination);
  src.start(at);
}

// A soft tone: the notes of a sweep's fanfare, the player's turn.
function tone(a, at, freq, length = 0.18, level = 0.18, type = "triangle") {
  const osc = a.createOscillator();
  osc.type = type;
  osc.frequency.value = freq;
  const gain = a.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(level, at + 0.015);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(a.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

const EFFECTS = {
  play: (a, now) => snap(a, now),
  capture: (a, now) => { snap(a, now); snap(a, now + 0.09, 0.3, 1500); tone(a, now + 0.12, 330, 0.15, 0.08); },
  sweep: (a, now) => [523, 659, 784, 1047].forEach((f, i) => tone(a, now + i * 0.11, f, 0.3)),
  deal: (a, now) => { for (let i = 0; i < 4; i++) snap(a, now + i * 0.08, 0.2, 2600); },
  collect: (a, now) => { for (let i = 0; i < 5; i++) snap(a, now + i * 0.05, 0.22, 1200 + i * 300); },
  turn: (a, now) => tone(a, now, 880, 0.25, 0.08, "sine"),
  over: (a, now) => [392, 523, 659, 784, 1047].forEach((f, i) => tone(a, now + i * 0.14, f, 0.4)),
};

/** Play the effect ``name`` (play, capture, sweep, deal, collect, turn, over) if sound is on. */
export function effect(name) {
  if (!soundOn() || !EFFECTS[name]) return;
  const a = audio();
  if (!a) return;
  try {
    EFFECTS[name](a, a.currentTime + 0.01);
  } catch {
    // A browser that refuses to make a sound leaves the game as it is.
  }
}

/** The sound toggle in ``header``, before its language picker. */
export function mountSoundToggle(header) {
  if (!header || header.querySelector("#sound")) return;
  const button = document.createElement("button");
  button.id = "sound";
  button.type = "button";
  button.className = "sound-toggle";
  const show = () => {
    const on = soundOn();
    button.setAttribute("aria-pressed", on ? "true" : "false");
    // A loudspeaker, with its sound waves or crossed out: drawn here, no icon font needed.
    button.innerHTML = `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><path fill="currentColor" stroke="none" d="M3 9h4l5-4v14l-5-4H3z"/>${on ? '<path d="M15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13"/>' : '<path d="M16 9l6 6M22 9l-6 6"/>'}</svg>`;
    button.title = t(on ? "sound_on" : "sound_off");
    button.setAttribute("aria-label", t("sound"));
    document.body.dataset.sound = on ? "on" : "off";
  };
  button.addEventListener("click", () => {
    localStorage.setItem(KEY, soundOn() ? "off" : "on");
    show();
    effect("play");
  });
  onLangChange(show);
  show();
  beforeLang(header, button);
}
