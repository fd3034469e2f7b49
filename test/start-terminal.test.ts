/**
 * A readable start (issue 24, point 11). `npm start` in a real pseudo-terminal (util-linux `script`, which
 * gives the service a TTY as stdout, as a shell in a terminal does) prints readable lines (pino-pretty),
 * a ready line with the URLs, one short line per request, and a client that leaves mid-request is one
 * info line, not an error with a stack trace. The same service with stdout piped (a log collector) writes
 * JSON lines with the full request and response records, and a client abort is not an error there either.
 */
import net from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { Redis } from 'ioredis';
import { createTestDatabase, type TestDatabase } from './helpers/server.js';
import { REDIS_URL, testRedisPrefix, unlinkRedisPrefix } from './helpers/env.js';
import { childEnv, REPO_ROOT } from './helpers/cli.js';
import { eventually } from './helpers/http.js';
import { commandLine, descendants, freePort, startServiceProcess, type StartedProcess } from './helpers/processes.js';

const redisPrefix = `${testRedisPrefix(inject('testRunId'))}tty${process.pid}`;
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
}, 60_000);
afterAll(async () => {
  await db?.drop();
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    await unlinkRedisPrefix(redis, `${redisPrefix}:`);
  } finally {
    redis.disconnect();
  }
});

const serviceEnv = (port: number, prefix: string) => ({
  DATABASE_URL: db.url,
  REDIS_URL,
  REDIS_PREFIX: prefix,
  PORT: String(port),
  HOST: '127.0.0.1',
  BOOTSTRAP_DEMO: 'false',
  LOG_LEVEL: 'info',
  NO_COLOR: undefined,
  FORCE_COLOR: undefined,
});

/**
 * Sends the head and the first bytes of a JSON body that never completes, then closes the connection. It
 * closes once the server has read the head: the head asks `Expect: 100-continue`, and Node's server answers
 * `100 Continue` when it has parsed the head and handed the request on (a fact, not a pause).
 */
function abandonBody(port: number, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = net.createConnection({ host: '127.0.0.1', port }, () => {
      s.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nExpect: 100-continue\r\n\r\n`,
      );
    });
    let answer = '';
    s.on('data', (d) => {
      answer += d.toString('latin1');
      if (/^HTTP\/1\.1 100 /.test(answer)) s.write('{"name":', () => s.destroy());
    });
    s.on('close', () => resolve());
    s.on('error', reject);
  });
}

// eslint-disable-next-line no-control-regex
const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r/g, '');

describe('npm start at a terminal', () => {
  let script: ChildProcess;
  let out = '';
  let port: number;

  afterAll(async () => {
    if (!script || script.exitCode !== null) return;
    const exited = new Promise((r) => script.once('exit', r));
    for (const pid of descendants(script.pid!)) if (commandLine(pid).includes('start.mjs')) process.kill(pid, 'SIGINT');
    const timer = setTimeout(() => script.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
    for (const pid of descendants(script.pid!)) process.kill(pid, 'SIGKILL');
  });

  it(
    'prints readable lines, a ready line with the URLs, one line per request, and a client abort as one info line',
    { timeout: 180_000 },
    async () => {
      port = await freePort();
      // `script -q -e -f -c CMD /dev/null`: CMD runs on a new pseudo-terminal; what it prints arrives here.
      script = spawn('script', ['-qefc', 'npm start', '/dev/null'], {
        cwd: REPO_ROOT,
        env: childEnv(serviceEnv(port, `${redisPrefix}a`)),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      script.stdout!.on('data', (d) => (out += d));
      script.stderr!.on('data', (d) => (out += d));
      const url = `http://127.0.0.1:${port}`;
      await eventually(
        async () => stripAnsi(out).includes('Ctrl-C stops the service') || script.exitCode !== null,
        150_000,
        200,
      );
      const text = () => stripAnsi(out);
      expect(script.exitCode, text()).toBeNull();
      expect(text()).toContain(
        `Ready. Console ${url}/   API ${url}/api/v1   Docs ${url}/docs   GraphQL ${url}/graphql`,
      );
      expect(text()).toMatch(
        /^\[\d\d:\d\d:\d\d\] INFO: operations service listening \{"url":"http:\/\/127\.0\.0\.1:\d+"/m,
      );
      expect(out).toMatch(/\x1b\[\d+m/); // colours: stdout is a terminal

      expect((await fetch(`${url}/api/v1/alerts`)).status).toBe(401);
      await abandonBody(port, '/api/v1/alert-rules');
      await abandonBody(port, '/graphql');
      await eventually(async () => text().includes('POST /graphql closed by the client'), 30_000);
      await eventually(async () => text().includes('POST /api/v1/alert-rules closed by the client'), 30_000);

      const lines = text().split('\n');
      expect(lines.filter((l) => l.includes('/api/v1/alerts'))).toEqual([
        expect.stringMatching(/^\[\d\d:\d\d:\d\d\] INFO: GET \/api\/v1\/alerts 401 \d+ ms$/),
      ]);
      const closed = lines.filter((l) => l.includes('closed by the client'));
      expect(closed).toHaveLength(2);
      expect(closed).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /^\[\d\d:\d\d:\d\d\] INFO: POST \/api\/v1\/alert-rules closed by the client \(no answer yet\) \d+ ms$/,
          ),
          expect.stringMatching(
            /^\[\d\d:\d\d:\d\d\] INFO: POST \/graphql closed by the client \(no answer yet\) \d+ ms$/,
          ),
        ]),
      );
      // No JSON records, no request/response dumps, no errors or stack traces.
      expect(lines.filter((l) => l.startsWith('{'))).toEqual([]);
      expect(text()).not.toMatch(/"headers"|"remoteAddress"|ERROR|BadRequestError|request aborted|\n\s+at /);
    },
  );
});

describe('the service with stdout piped', () => {
  let svc: StartedProcess;
  afterAll(async () => {
    if (!svc || svc.child.exitCode !== null) return;
    svc.child.kill('SIGTERM');
    await svc.exited;
  });

  it(
    'writes JSON lines with the full access record, and a client abort is an info record without a stack',
    { timeout: 180_000 },
    async () => {
      const port = await freePort();
      svc = await startServiceProcess(
        process.execPath,
        ['--enable-source-maps', 'scripts/start.mjs'],
        serviceEnv(port, `${redisPrefix}b`),
      );
      expect((await fetch(`${svc.url}/api/v1/alerts`)).status).toBe(401);
      await abandonBody(port, '/api/v1/alert-rules');
      await abandonBody(port, '/graphql');
      const records = () =>
        svc
          .stdout()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map(
            (l) =>
              JSON.parse(l) as {
                level: number;
                msg: string;
                req?: { method: string; url: string; headers: object };
                res?: { statusCode: number | null };
                err?: unknown;
              },
          );
      await eventually(async () => records().filter((r) => r.msg === 'request aborted').length === 2, 30_000);

      expect(svc.stdout()).not.toContain('Ready.');
      // Every line on stdout is a JSON record (no banner: BOOTSTRAP_DEMO=false, nothing was built).
      expect(
        svc
          .stdout()
          .split('\n')
          .filter((l) => l.trim() && !l.startsWith('{') && !/^(building the server|server built in)/.test(l)),
      ).toEqual([]);
      const access = records().find((r) => r.req?.url === '/api/v1/alerts');
      expect(access).toMatchObject({
        level: 30,
        msg: 'request completed',
        req: { method: 'GET', headers: expect.any(Object) },
        res: { statusCode: 401 },
      });
      expect(
        records()
          .filter((r) => r.msg === 'request aborted')
          .map((r) => [r.level, r.req?.url, r.err]),
      ).toEqual(
        expect.arrayContaining([
          [30, '/api/v1/alert-rules', undefined],
          [30, '/graphql', undefined],
        ]),
      );
      expect(records().filter((r) => r.level >= 50)).toEqual([]);
      expect(svc.stdout() + svc.stderr()).not.toMatch(/BadRequestError|unexpected error/);
    },
  );
});
