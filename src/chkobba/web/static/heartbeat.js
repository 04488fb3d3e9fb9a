// The heartbeat of a game's WebSocket (docs/protocol.md, "Heartbeat"): a ping every
// EVERY ms, which the server answers with a pong. A connection whose pong does not come
// within WITHIN ms is taken for dead (a hung server, a cut network, a balancer that
// kept a tunnel to a worker gone): `onDead` is called once, and the page reconnects,
// through the balancer, to a worker that answers.

export const EVERY = 15000;
export const WITHIN = 10000;

/** Start beating on `ws`; feed every message the server sends to `seen` (true: it was
 * the heartbeat's pong, for nobody else); `stop` when the page is done with `ws`.
 * `opts.timers` ({setTimeout, clearTimeout}) replaces the browser's clock in tests. */
export function heartbeat(ws, onDead, opts = {}) {
  const every = opts.every ?? EVERY;
  const within = opts.within ?? WITHIN;
  const timers = opts.timers ?? globalThis;
  let n = 0;
  let waiting = null; // the id of the ping not answered yet
  let next = null;
  let deadline = null;
  let stopped = false;

  const clear = () => {
    if (next !== null) timers.clearTimeout(next);
    if (deadline !== null) timers.clearTimeout(deadline);
    next = deadline = null;
  };
  const stop = () => {
    stopped = true;
    clear();
  };
  const ping = () => {
    next = null;
    if (stopped) return;
    n += 1;
    waiting = `hb${n}`;
    try {
      ws.send(JSON.stringify({ type: "ping", id: waiting }));
    } catch {
      // A socket closing under the ping: its close event reconnects.
    }
    deadline = timers.setTimeout(() => {
      deadline = null;
      if (stopped) return;
      stop();
      onDead();
    }, within);
  };
  next = timers.setTimeout(ping, every);

  return {
    seen(msg) {
      if (!msg || msg.type !== "pong" || msg.re === undefined || !String(msg.re).startsWith("hb")) {
        return false;
      }
      if (msg.re === waiting && !stopped) {
        waiting = null;
        clear();
        next = timers.setTimeout(ping, every);
      }
      return true;
    },
    stop,
  };
}
