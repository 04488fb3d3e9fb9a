// Motion: every card that moves goes from where it was to where it now is (FLIP: the page
// is drawn in its new state, then each card is animated from its old place). A card laid
// comes from its player's seat, a deal from the stock, captured cards fly to the taker's
// pile, a sweep is shouted in a banner, the table goes to the last capturer at the end of a
// round, a Touti trick to its winner. The moves of the other seats are paced (PACE_MS
// each) so a person can follow them; the player's own are not. "Show the last move again"
// plays the last animation once more.
//
// With prefers-reduced-motion (or ?motion=off in the address) nothing moves and nothing
// waits: the page shows each state at once, and only the sweep's banner stays a moment.
import { cardImage } from "./cards.js";
import { effect } from "./sound.js";

export const PACE_MS = 750;
const MOVE_MS = 420;
const FLY_MS = 650;
const BANNER_MS = 1600;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether cards move: not under prefers-reduced-motion, nor with ?motion=off. */
export function motionOn() {
  const asked = new URLSearchParams(location.search).get("motion");
  if (asked === "off") return false;
  if (asked === "on") return true;
  return !window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

/** A queue of tasks run one after the other; a task may return a promise to wait for. */
export function pacer() {
  let chain = Promise.resolve();
  return (task) => {
    chain = chain.then(task).catch((e) => console.error(e));
    return chain;
  };
}

/** The pause after another seat's move, so that it can be seen (none without motion). */
export function pace(paced) {
  return paced && motionOn() ? sleep(PACE_MS) : Promise.resolve();
}

/** Where each card named ``data-card`` under ``roots`` is now, before the page changes. */
export function snapshot(roots) {
  const snap = new Map();
  for (const root of roots) {
    if (!root) continue;
    for (const el of root.querySelectorAll("[data-card]")) {
      if (el.classList.contains("gathered")) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width) snap.set(el.dataset.card, { rect, node: el });
    }
  }
  return snap;
}

let running = 0;
let last = null;

function track(promises) {
  running += 1;
  document.body.dataset.animating = String(running);
  return Promise.allSettled(promises).then(() => {
    running -= 1;
    document.body.dataset.animating = String(running);
  });
}

const centre = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

function layer() {
  let box = document.querySelector(".motion-layer");
  if (!box) {
    box = document.createElement("div");
    box.className = "motion-layer";
    box.setAttribute("aria-hidden", "true");
    document.body.append(box);
  }
  return box;
}

/** A copy of a card flying from ``rect`` (through ``via``) to ``target``, then gone. */
function fly(node, rect, target, via = null, delay = 0) {
  const ghost = node.cloneNode(true);
  ghost.removeAttribute("data-card");
  ghost.removeAttribute("id");
  ghost.classList.remove("playable", "selected", "hl");
  ghost.classList.add("ghost");
  Object.assign(ghost.style, {
    position: "fixed", left: `${rect.left}px`, top: `${rect.top}px`,
    width: `${rect.width}px`, height: `${rect.height}px`, margin: "0",
  });
  layer().append(ghost);
  const from = centre(rect);
  const step = (el) => {
    const to = centre(el.getBoundingClientRect());
    return `translate(${to.x - from.x}px, ${to.y - from.y}px)`;
  };
  const frames = [{ transform: "none", opacity: 1 }];
  if (via) frames.push({ transform: `${step(via)} scale(1.05)`, opacity: 1, offset: 0.45 });
  else frames.push({ transform: "scale(1.08)", opacity: 1, offset: 0.3 });
  frames.push(target
    ? { transform: `${step(target)} scale(0.35)`, opacity: 0.2 }
    : { transform: "scale(0.8)", opacity: 0 });
  const anim = ghost.animate(frames, { duration: via ? FLY_MS + 250 : FLY_MS, delay, easing: "ease-in-out", fill: "forwards" });
  return anim.finished.catch(() => {}).finally(() => ghost.remove());
}

/** The sweep's banner ("Chkobba!", "Scopa!"), held for a moment where nobody can miss it. */
function banner(text) {
  const b = document.createElement("div");
  b.className = "sweep-banner";
  b.setAttribute("role", "status");
  b.textContent = text;
  document.body.append(b);
  document.body.dataset.sweep = text;
  if (!motionOn()) {
    // Shown without movement; nobody waits for it.
    setTimeout(() => b.remove(), BANNER_MS);
    return Promise.resolve();
  }
  const at = "translate(-50%, -50%)";
  return b.animate([
    { transform: `${at} scale(0.3)`, opacity: 0 },
    { transform: `${at} scale(1.12)`, opacity: 1, offset: 0.2 },
    { transform: `${at} scale(1)`, opacity: 1, offset: 0.8 },
    { transform: `${at} scale(1)`, opacity: 0 },
  ], { duration: BANNER_MS }).finished.catch(() => {}).finally(() => b.remove());
}

/**
 * Animate the change the page has just drawn, from ``snap`` (taken before drawing).
 * ``opts``: ``roots`` (where the cards are), ``from(code)`` (the element a card new to
 * the page comes from), ``to(code)`` (the element a card gone from the page goes to),
 * ``via(code)`` (where a card gone passes first: the table, for the card that captured),
 * ``extra`` ([{code, from, to, via}]: a card never on the page, such as another seat's card
 * that captured), ``banner`` (a word to shout), ``sound`` and ``kind`` (for the tests).
 */
export function animate(snap, opts) {
  last = () => run(snap, opts);
  return run(snap, opts);
}

function run(snap, opts) {
  const moving = [];
  if (opts.sound) effect(opts.sound);
  if (opts.banner) moving.push(banner(opts.banner));
  document.body.dataset.lastMotion = opts.kind || "";
  if (!motionOn()) return track(moving);
  const now = new Set();
  let fresh = 0;
  for (const root of opts.roots) {
    if (!root) continue;
    for (const el of root.querySelectorAll("[data-card]")) {
      const code = el.dataset.card;
      now.add(code);
      const rect = el.getBoundingClientRect();
      const old = snap.get(code);
      let start = old?.rect;
      let delay = 0;
      if (!start) {
        const source = opts.from?.(code);
        if (!source) continue;
        start = source.getBoundingClientRect();
        delay = fresh++ * 70;
      }
      const a = centre(start);
      const b = centre(rect);
      if (Math.abs(a.x - b.x) + Math.abs(a.y - b.y) < 2) continue;
      const scale = old ? start.width / rect.width : 0.6;
      moving.push(el.animate([
        { transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale})`, opacity: old ? 1 : 0.4 },
        { transform: "none", opacity: 1 },
      ], { duration: MOVE_MS, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" }).finished.catch(() => {}));
    }
  }
  let gone = 0;
  for (const [code, { rect, node }] of snap) {
    if (now.has(code)) continue;
    moving.push(fly(node, rect, opts.to?.(code), opts.via?.(code), gone++ * 60));
  }
  for (const x of opts.extra ?? []) {
    if (!x.from) continue;
    const node = document.createElement("span");
    node.className = "card";
    node.append(cardImage(x.code));
    moving.push(fly(node, x.from.getBoundingClientRect(), x.to, x.via));
  }
  return track(moving);
}

/** Play the last animation again ("Show the last move again"). */
export function replayLast() {
  return last ? last() : Promise.resolve();
}

export function hasLast() {
  return last !== null;
}

const CARD = /^[A2-7QJK][shdc]$/;

/** Where a side's captured cards fly: its score as drawn, in the bar above the table or,
 * with three sides or more each for themselves, at its seat (the bar's chip is hidden
 * then, and a hidden element's place is the window's top-left corner). */
export function pileOf(side) {
  if (side === null || side === undefined) return null;
  const shown = [...document.querySelectorAll(`.seat-score[data-side="${side}"], .score[data-side="${side}"]`)]
    .find((e) => e.getClientRects().length > 0);
  return shown ?? null;
}

/**
 * The animation of a move of the Chkobba family on game.html, between the state ``prev``
 * the page showed and ``state`` it now shows: who moved, what was laid or captured, whether
 * it swept the table, whether the round ended (the last capturer collecting the table) and a
 * new one was dealt. ``sideOf`` maps seats to sides (their piles in the scores), ``word``
 * is the game's shout for a sweep. Returns a promise that ends with the animation and, after
 * another seat's move, the pause that lets a person follow it.
 */
export function chkobbaMove({ prev, state, snap, seat, sideOf, word }) {
  const $ = (id) => document.getElementById(id);
  if (!prev) {
    // The page's first state: its cards are dealt from the stock.
    const stock = document.querySelector("#scores .meta");
    return animate(snap, { roots: [$("table"), $("hand"), $("cut")], from: () => stock, kind: "deal" });
  }
  const ended = state.rounds.length > prev.rounds.length;
  const turn = state.history.at(-1) ?? (ended ? state.previous?.history?.at(-1) : null) ?? null;
  const mover = turn ? turn.seat : null;
  const move = typeof turn?.move === "string" ? turn.move : "";
  const capture = move.includes(":");
  const played = CARD.test(move.split(":")[0]) ? move.split(":")[0] : null;
  const seatBox = (s) => (s === null || s === seat ? null : document.querySelector(`.seat[data-seat="${s}"]`));
  const pile = pileOf;
  const stock = document.querySelector("#scores .meta") || $("table");
  const takerSide = ended ? (state.previous?.taker ?? null) : capture ? sideOf[mover] : null;
  const inPage = (code) => Boolean(document.querySelector(`#table [data-card="${code}"], #hand [data-card="${code}"]`));
  const extra = [];
  if (played && !snap.has(played) && !inPage(played) && seatBox(mover)) {
    // Another seat's card that captured (or ended the round): from its seat, over the
    // table, to the pile.
    extra.push({ code: played, from: seatBox(mover), via: $("table"), to: pile(takerSide) });
  }
  let kind = ended ? "collect" : capture ? "capture" : move ? "play" : "deal";
  if (turn?.chkobba) kind = "sweep";
  const sound = { collect: "collect", capture: "capture", play: "play", deal: "deal", sweep: "sweep" }[kind];
  const shown = animate(snap, {
    roots: [$("table"), $("hand"), $("cut")],
    from: (code) => (code === played && seatBox(mover) ? seatBox(mover) : stock),
    to: () => pile(takerSide),
    via: (code) => (code === played ? $("table") : null),
    extra,
    banner: turn?.chkobba ? word : null,
    sound,
    kind,
  });
  if (state.over && !prev.over) effect("over");
  else if (state.legal.length && mover !== seat) setTimeout(() => effect("turn"), 300);
  return Promise.all([shown, pace(mover !== null && mover !== seat)]);
}

/**
 * The animation of a Touti move on touti.html: a card from its seat (or the hand) to the
 * trick, and a finished trick, once seen, gathered to its winner. Returns a promise that
 * ends with the animation and, after another seat's move, the pause.
 */
export function toutiMove({ prev, view, snap }) {
  const $ = (id) => document.getElementById(id);
  const seatOf = (s) => document.querySelector(`.touti-seat[data-seat="${s}"] .who`);
  const table = document.querySelector(".touti-table");
  const event = [...view.log].reverse().find((e) => e.seat !== undefined && e.seat !== null);
  const mine = view.log.at(-1)?.seat === 0;
  const slotSeat = (code) => {
    const el = document.querySelector(`.touti-table [data-card="${code}"]`);
    return el ? Number(el.closest(".touti-seat").dataset.seat) : null;
  };
  const winner = view.last_trick?.winner;
  const finished = !view.trick.length && view.last_trick && prev.trick.length > 0;
  const played = event?.kind === "play";
  const shown = animate(snap, {
    roots: [$("t-hand"), table],
    from: (code) => {
      const s = slotSeat(code);
      return s !== null && s !== 0 ? seatOf(s) : table;
    },
    to: () => (winner === undefined ? null : seatOf(winner)),
    sound: played || view.trick.length ? "play" : view.hand.length > prev.hand.length ? "deal" : null,
    kind: finished ? "trick" : "play",
  });
  const wait = Promise.all([shown, pace(!mine)]);
  if (!finished || winner === undefined) return wait;
  // The finished trick stays on the table for a moment, then goes to its winner.
  return wait.then(() => gather(winner));
}

function gather(winner) {
  const target = document.querySelector(`.touti-seat[data-seat="${winner}"] .who`);
  const cards = [...document.querySelectorAll(".touti-table .slot [data-card]")];
  // Without motion the finished trick simply stays on the table until the next card.
  if (!motionOn()) return Promise.resolve();
  const run = () => {
    document.body.dataset.lastMotion = "gather";
    effect("collect");
    const moving = cards.map((el, i) => {
      el.classList.remove("gathered");
      if (!target) return Promise.resolve();
      const from = centre(el.getBoundingClientRect());
      const to = centre(target.getBoundingClientRect());
      return el.animate([
        { transform: "none", opacity: 1 },
        { transform: `translate(${to.x - from.x}px, ${to.y - from.y}px) scale(0.35)`, opacity: 0.1 },
      ], { duration: FLY_MS, delay: i * 60, easing: "ease-in", fill: "forwards" }).finished.catch(() => {});
    });
    return track(moving).then(() => {
      for (const el of cards) {
        // The trick is the winner's now: the slots are empty until the next card.
        for (const a of el.getAnimations()) a.cancel();
        el.classList.add("gathered");
      }
    });
  };
  last = run;
  return run();
}
