/**
 * `npm run bench:abuse`: how long the service takes to refuse the documents and patterns of issue 40,
 * and how long `/healthz` takes meanwhile, over real HTTP and graphql-ws, with no credential.
 *
 * - the 22- and 25-level fragment bombs (`query { ...F0 } fragment F0 on Query { ...F1 ...F1 } …`), and
 *   whitespace variants of them (each a new document for yoga's caches);
 * - the largest documents the limits let through: one field repeated to the token limit, a fragment
 *   spread just under the expansion limit;
 * - the glob `*a*a*a*a*a*a*a*a*a*a*a*a*a*a` against a 200-character type, in process.
 *
 * Prints each case's refusal code, its duration and the slowest concurrent /healthz. Env: BENCH_ROUNDS (5).
 */
import './lib/production-mode.js'; // before anything loads graphql-js
import crypto from 'node:crypto';
import WebSocket from 'ws';
import { loadConfig } from '../src/config.js';
import { startApp } from '../src/server/app.js';
import { typeMatches } from '../src/events/match.js';
import { createBenchDatabase, REDIS_URL } from './lib/env.js';
import { PATHOLOGICAL_GLOB, fragmentBomb } from '../test/helpers/bombs.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const ms = (t: number) => `${(performance.now() - t).toFixed(1)} ms`;

async function healthzWhile<T>(base: string, work: () => Promise<T>): Promise<{ result: T; healthz: number[] }> {
  const healthz: number[] = [];
  let done = false;
  const probe = (async () => {
    while (!done) {
      const t = performance.now();
      await fetch(`${base}/healthz`).then((r) => r.arrayBuffer());
      healthz.push(performance.now() - t);
    }
  })();
  const result = await work();
  done = true;
  await probe;
  return { result, healthz };
}

async function overHttp(base: string, query: string): Promise<string> {
  const r = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  const body = (await r.json()) as { errors?: Array<{ extensions?: { code?: string; limit?: string } }> };
  const e = body.errors?.[0]?.extensions;
  return `${r.status} ${e?.code ?? 'ok'}${e?.limit ? ` ${e.limit}` : ''}`;
}

/** Sends `query` as a subscribe message once the connection is acknowledged, and reports what came back. */
async function overWs(base: string, query: string, authorization?: string): Promise<string> {
  const ws = new WebSocket(base.replace('http', 'ws') + '/graphql', 'graphql-transport-ws');
  return new Promise((resolve) => {
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization } })));
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString()) as { type: string; payload?: unknown };
      if (m.type === 'connection_ack')
        return ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
      ws.close();
      resolve(`${m.type} ${JSON.stringify(m.payload).slice(0, 80)}`);
    });
    ws.on('close', (code) => resolve(`closed ${code}`));
  });
}

const db = await createBenchDatabase('ops_bench_abuse');
const app = await startApp(
  loadConfig({
    DATABASE_URL: db.url,
    REDIS_URL,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    APP_SECRET: 'bench-secret-'.padEnd(48, 'x'),
    REDIS_PREFIX: `bench${crypto.randomBytes(4).toString('hex')}`,
    BOOTSTRAP_DEMO: 'false',
    NODE_ENV: 'production',
  }),
  { workers: false },
);
try {
  const base = app.url.replace(/\/$/, '');
  const cases: Array<[string, string]> = [
    ['22-level fragment bomb', fragmentBomb(22)],
    ['25-level fragment bomb', fragmentBomb(25)],
    ['22 levels, newlines', fragmentBomb(22, '\n')],
    ['22 levels, tabs and commas', fragmentBomb(22, '\t,')],
    ['field repeated to the token limit', `{ ${'__typename '.repeat(2990)}}`],
    ['fragment bomb of 12 levels (4,096 selections)', fragmentBomb(13)],
  ];
  for (const [name, query] of cases) {
    for (const [via, send] of [
      ['HTTP', overHttp],
      ['WS', overWs],
    ] as const) {
      const times: number[] = [];
      let answer = '';
      let slowest = 0;
      for (let i = 0; i < ROUNDS; i++) {
        // A new text each round (a trailing comment-free space run), so no cache answers.
        const text = query + ' '.repeat(i);
        const t = performance.now();
        const { result, healthz } = await healthzWhile(base, () => send(base, text));
        times.push(performance.now() - t);
        answer = result;
        slowest = Math.max(slowest, ...healthz);
      }
      times.sort((a, b) => a - b);
      console.log(
        `${name} over ${via}: ${answer}; median ${times[times.length >> 1]!.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms; slowest /healthz meanwhile ${slowest.toFixed(1)} ms`,
      );
    }
  }
  const glob = PATHOLOGICAL_GLOB;
  const type = 'a'.repeat(199) + '.';
  const t = performance.now();
  const matched = typeMatches(glob, type);
  console.log(`glob ${glob} against a 200-character type: ${matched} in ${ms(t)}`);
} finally {
  await app.stop();
  await db.drop();
}
