/**
 * The local admin socket: how operator commands (`npm run ops -- …`) work while a server holds the
 * embedded database. PGlite is one process's database, so a second process cannot open it; instead the
 * server listens on a Unix socket under DATA_DIR and the CLI, finding it, sends its arguments there. The
 * server runs the very same command (src/server/cli/commands.ts) with its own Runtime and answers with
 * what the CLI prints and its exit code. One code path per command: only where it runs differs.
 *
 * Who may use it: the socket is in `DATA_DIR/run/`, a directory of mode 0700, so only the operating-system
 * user running the server (and root) can connect — the same people who can read DATA_DIR's database
 * files and app secret anyway. Nothing listens on the network.
 *
 * Protocol: HTTP/1.1 over the socket. `POST /v1/command` with `{"argv": [...]}` answers
 * `{"code", "stdout", "stderr"}`; `GET /v1/ping` answers `{"pid"}`.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Runtime } from '../runtime.js';
import { runCliInServer } from './cli/run.js';
import { adminSocketPath } from './cli/admin-client.js';

/** Unix socket paths are limited to 107 bytes on Linux (103 on macOS). */
const MAX_SOCKET_PATH = 100;
const MAX_BODY_BYTES = 1024 * 1024;

export interface AdminSocket {
  path: string;
  close(): Promise<void>;
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * Listens on DATA_DIR/run/ops.sock. `serverUrl` (the HTTP address) is what commands show in the URLs they
 * print (inbound webhooks) when PUBLIC_BASE_URL is unset. Returns null (with a warning) when the path is too long for a Unix
 * socket; the CLI then says the database is held, as before. A socket file left by a server that died
 * is replaced; one that still answers belongs to another live server on the same DATA_DIR, which the
 * embedded database lock already refuses, so it is replaced too.
 */
export async function startAdminSocket(rt: Runtime, dataDir: string, serverUrl?: string): Promise<AdminSocket | null> {
  const socketPath = adminSocketPath(dataDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    rt.logger.warn(
      { socketPath },
      'DATA_DIR path too long for the admin socket; operator commands cannot reach this server',
    );
    return null;
  }
  const dir = path.dirname(socketPath);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  fs.rmSync(socketPath, { force: true });

  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/v1/ping') return send(res, 200, { pid: process.pid });
    if (req.method !== 'POST' || req.url !== '/v1/command') return send(res, 404, { error: 'not found' });
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      let argv: unknown;
      try {
        argv = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { argv?: unknown }).argv;
      } catch {
        return send(res, 400, { error: 'body must be JSON {"argv": [...]}' });
      }
      if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string'))
        return send(res, 400, { error: 'argv must be a list of strings' });
      runCliInServer(argv, rt, serverUrl).then(
        (outcome) => send(res, 200, outcome),
        (err: unknown) => {
          rt.logger.error({ err }, 'admin socket command failed');
          send(res, 200, { code: 1, stderr: `Error: ${(err as Error).message}` });
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  fs.chmodSync(socketPath, 0o600);
  server.on('error', (err) => rt.logger.error({ err }, 'admin socket error'));
  return {
    path: socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        fs.rmSync(socketPath, { force: true });
      }),
  };
}
