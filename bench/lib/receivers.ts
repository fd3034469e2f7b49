/**
 * bench:deliveries' receivers: N HTTP servers on 127.0.0.1 in a child process of their own (so their CPU
 * is not counted as the engine's), each counting its requests, their distinct `webhook-id`s and their
 * arrival times; asked over IPC for totals, per-receiver stats, the lag at the cap and each round's end.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ReceiverStats {
  requests: number;
  unique: number;
  maxPerSlidingSecond: number;
}

const RECEIVER_PROCESS = `
const http = require('node:http');
const parentPort = { postMessage: (m) => process.send(m), on: (e, f) => process.on(e, f) };
const workerData = { n: Number(process.env.BENCH_RECEIVERS) };
const stats = [];
const urls = [];
let started = 0;
function maxSliding(times) {
  times.sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i] - times[j] >= 1000) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}
for (let i = 0; i < workerData.n; i++) {
  const st = { times: [], ids: new Set(), requests: 0 };
  stats.push(st);
  const srv = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      st.requests++;
      st.times.push(performance.timeOrigin + performance.now());
      st.ids.add(String(req.headers['webhook-id']));
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  srv.keepAliveTimeout = 60000;
  srv.listen(0, '127.0.0.1', () => {
    urls[i] = 'http://127.0.0.1:' + srv.address().port + '/hook/' + i;
    if (++started === workerData.n) parentPort.postMessage({ urls });
  });
}
parentPort.on('message', (m) => {
  if (m === 'reset') {
    for (const st of stats) { st.times = []; st.ids = new Set(); st.requests = 0; }
    parentPort.postMessage({ reset: true });
  } else if (m === 'stats') {
    parentPort.postMessage({ stats: stats.map((st) => ({ requests: st.requests, unique: st.ids.size, maxPerSlidingSecond: maxSliding(st.times) })) });
  } else if (m === 'lags') {
    // At the cap, request k + cap may reach a receiver a second after request k: how much later it did (ms).
    const cap = Number(process.env.BENCH_CAP), lags = [];
    for (const st of stats) { const t = st.times.slice().sort((a, b) => a - b); for (let k = 0; k + cap < t.length; k++) lags.push(t[k + cap] - t[k] - 1000); }
    lags.sort((a, b) => a - b);
    const q = (p) => lags.length ? Math.round(lags[Math.floor(p * (lags.length - 1))]) : 0;
    parentPort.postMessage({ lags: { p50: q(0.5), p90: q(0.9), p99: q(0.99) } });
  } else if (m === 'rounds') {
    // Each receiver's request k·cap (the last of each round of the cap), and the first requests per 50 ms: where a run loses time.
    const cap = Number(process.env.BENCH_CAP), rounds = [], first = [];
    for (const st of stats) { const t = st.times.slice().sort((a, b) => a - b); rounds.push(t.filter((_v, k) => (k + 1) % cap === 0)); first.push(...t.slice(0, cap)); }
    parentPort.postMessage({ rounds: { rounds, first } });
  } else if (m === 'total') {
    parentPort.postMessage({ total: stats.reduce((n, st) => n + st.requests, 0) });
  }
});
`;

export function ask<T>(w: ChildProcess, msg: string, key: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: Record<string, unknown>) => {
      if (key in m) {
        w.off('message', on);
        resolve(m[key] as T);
      }
    };
    w.on('message', on);
    w.send(msg);
  });
}

/** Starts the receivers' process; resolves with it and the receivers' URLs. */
export async function startReceivers(n: number, cap: number): Promise<{ proc: ChildProcess; urls: string[] }> {
  const proc = spawn(process.execPath, ['-e', RECEIVER_PROCESS], {
    env: { ...process.env, BENCH_RECEIVERS: String(n), BENCH_CAP: String(cap) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const urls = await ask<string[]>(proc, 'noop', 'urls');
  return { proc, urls };
}
