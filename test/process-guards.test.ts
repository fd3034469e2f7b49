/**
 * The process-level last resort (src/server/process-guards.ts), in real child processes: an unhandled rejection
 * and an unlistened socket error (a real connection reset on 127.0.0.1) are logged and the process keeps
 * running; any other uncaught exception is logged as fatal, the graceful stop runs, and the exit code is 1.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { buildSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { describe, expect, it } from 'vitest';
import { guardServerErrors } from '../src/server/process-guards.js';
import { createLogger } from '../src/logger.js';

const guards = path.resolve('src/server/process-guards.js');
const logger = path.resolve('src/logger.js');

interface Run {
  code: number | null;
  lines: Array<Record<string, unknown>>;
  text: string[];
}

/** Runs `body` in a fresh Node process with the guards installed; pino writes JSON lines to stdout. */
function runChild(body: string): Promise<Run> {
  const code = `
    import { installProcessGuards } from ${JSON.stringify(guards)};
    import { createLogger } from ${JSON.stringify(logger)};
    import net from 'node:net';
    const logger = createLogger('info');
    installProcessGuards({ logger, shutdown: async () => { process.stdout.write('SHUTDOWN\\n'); }, exitTimeoutMs: 20000 });
    ${body}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  return new Promise((resolve) => {
    child.on('close', (exitCode) => {
      const rows = out.split('\n').filter(Boolean);
      const lines = rows.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ code: exitCode, lines, text: rows.filter((l) => !l.startsWith('{')) });
    });
  });
}

describe('process guards', () => {
  it('an unhandled rejection is logged and the process keeps serving', async () => {
    const r = await runChild(`
      process.on('unhandledRejection', () => setImmediate(() => { process.stdout.write('ALIVE\\n'); process.exit(0); }));
      Promise.reject(new Error('nobody awaited this'));`);
    expect(r.code).toBe(0);
    expect(r.text).toContain('ALIVE');
    expect(r.lines.find((l) => l.msg === 'unhandled promise rejection (kept serving)')).toMatchObject({
      level: 50,
      err: { message: 'nobody awaited this' },
    });
  });

  it('an unlistened socket error (a real reset) is logged and the process keeps serving', async () => {
    const r = await runChild(`
      const server = net.createServer((s) => s.once('data', () => s.resetAndDestroy()));
      server.listen(0, '127.0.0.1', () => {
        const client = net.connect(server.address().port, '127.0.0.1'); // deliberately no 'error' listener
        client.on('connect', () => client.write('x'.repeat(1024))); // reset once the server has read it
      });
      process.on('uncaughtException', () => setImmediate(() => { process.stdout.write('ALIVE\\n'); process.exit(0); }));`);
    expect(r.code).toBe(0);
    expect(r.text).toContain('ALIVE');
    const logged = r.lines.find(
      (l) => l.msg === 'unhandled socket error (kept serving: the socket is already destroyed)',
    ) as { level: number; err: { code: string } };
    expect(logged.level).toBe(50);
    expect(['ECONNRESET', 'EPIPE']).toContain(logged.err.code);
    expect(r.text).not.toContain('SHUTDOWN');
  });

  it('any other uncaught exception is fatal: logged, graceful stop, exit code 1', async () => {
    const r = await runChild(`setTimeout(() => { null.boom(); });`);
    expect(r.code).toBe(1);
    expect(r.text).toContain('SHUTDOWN');
    expect(r.lines.find((l) => l.msg === 'uncaught exception; stopping the process')).toMatchObject({
      level: 60,
      err: { type: 'TypeError' },
    });
  });
});

describe('server error listeners', () => {
  /** An HTTP server with graphql-ws attached the way src/http/graphql.ts attaches it. */
  async function serverWithWs() {
    const server = http.createServer();
    const wss = new WebSocketServer({ server, path: '/graphql' });
    useServer({ schema: buildSchema('type Query { x: Int }') }, wss);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    return { server, wss };
  }
  // What net.Server emits when accept() fails, e.g. when the process is out of file descriptors.
  const acceptError = () => Object.assign(new Error('accept EMFILE'), { code: 'EMFILE', syscall: 'accept' });

  it('without them a second server error is thrown (graphql-ws listens once); with them both are logged', async () => {
    const quietConsole = console.error;
    console.error = () => {}; // graphql-ws reports the first error on the console
    try {
      const bare = await serverWithWs();
      bare.server.emit('error', acceptError());
      expect(() => bare.server.emit('error', acceptError())).toThrow(/EMFILE/);
      bare.server.close();

      const logged: string[] = [];
      const logger = createLogger('info', { write: (line: string) => void logged.push(JSON.parse(line).msg) });
      const guarded = await serverWithWs();
      guardServerErrors(logger, guarded.server, guarded.wss);
      guarded.server.emit('error', acceptError());
      expect(() => guarded.server.emit('error', acceptError())).not.toThrow();
      expect(logged.filter((m) => m === 'HTTP server error')).toHaveLength(2);
      expect(logged.filter((m) => m === 'WebSocket server error')).toHaveLength(2);
      guarded.server.close();
    } finally {
      console.error = quietConsole;
    }
  });
});
