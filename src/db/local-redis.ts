/**
 * A private `redis-server` for running without REDIS_URL: a child process on 127.0.0.1 and a free port,
 * with an append-only file under the data directory so queued jobs survive restarts.
 *
 * The child must not outlive this process even when it is killed with SIGKILL, which no signal handler
 * sees. So redis-server runs under a small `sh` watchdog that holds the read end of a pipe from us: when
 * we die, the kernel closes our end, the watchdog reads EOF and sends redis-server SIGTERM (which makes
 * it flush the append-only file and exit).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface LocalRedis {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  /** Shuts redis-server down (persisting the append-only file) and waits for it to exit. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

// "$@" is redis-server and its arguments. fd 3 carries our pipe into the watcher, because a background
// job in a non-interactive shell gets /dev/null as stdin unless told otherwise.
const WATCHDOG = `
exec 3<&0
"$@" </dev/null 3<&- &
server=$!
( read -r _ <&3; kill -TERM "$server" 2>/dev/null ) &
watcher=$!
exec 3<&-
wait "$server"
status=$?
kill "$watcher" 2>/dev/null
exit "$status"
`;

/**
 * Starts `redis-server` bound to 127.0.0.1 on a free port with `appendonly yes` and its files in
 * `<dataDir>/redis`, and resolves once it answers PING. The server exits when this process exits, however
 * it exits. Throws, saying how to install Redis or to set REDIS_URL, when `redis-server` is not on PATH;
 * throws when another live redis-server already uses `<dataDir>/redis`.
 */
export async function startLocalRedis(dataDir: string): Promise<LocalRedis> {
  const binary = findOnPath('redis-server');
  if (!binary) {
    throw new Error(
      'redis-server was not found on PATH, and REDIS_URL is not set. Install Redis ' +
        '(Debian/Ubuntu: `sudo apt-get install redis-server`; macOS: `brew install redis`), ' +
        'or set REDIS_URL=redis://host:6379 to use an existing server.',
    );
  }
  const dir = path.resolve(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const pidFile = path.join(dir, 'redis.pid');
  const holder = readPid(pidFile);
  if (holder !== null && isAlive(holder)) {
    throw new Error(
      `${dir} is in use by redis-server process ${holder}; stop it or use another data directory ` +
        `(if no such redis-server runs, delete ${pidFile}).`,
    );
  }

  let lastError: Error | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    try {
      return await launch(binary, dir, pidFile, port);
    } catch (err) {
      lastError = err as Error;
      // Another process may have taken the port between our probe and redis-server's bind.
      if (!/Address already in use/i.test(lastError.message)) throw lastError;
    }
  }
  throw lastError;
}

async function launch(binary: string, dir: string, pidFile: string, port: number): Promise<LocalRedis> {
  const args = [
    '--bind',
    '127.0.0.1',
    '--port',
    String(port),
    '--dir',
    dir,
    '--appendonly',
    'yes',
    '--save',
    '',
    '--maxmemory-policy',
    'noeviction', // BullMQ must never lose keys to eviction
    '--pidfile',
    pidFile,
    '--daemonize',
    'no',
    '--protected-mode',
    'yes',
    '--logfile',
    '',
    '--loglevel',
    'warning',
  ];
  // detached: its own process group, so stop() can clean up the whole group if redis-server hangs.
  const child = spawn('sh', ['-c', WATCHDOG, 'redis-watchdog', binary, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const output: string[] = [];
  const collect = (chunk: Buffer) => {
    output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    output.splice(0, Math.max(0, output.length - 40));
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);

  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await waitUntilReady(port, exited, () => output.join('\n'));
  } catch (err) {
    await terminate(child, exited);
    throw err;
  }

  // Neither the child nor its pipes keep the event loop alive; our end of stdin stays open until we exit.
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as net.Socket).unref();

  let stopping: Promise<void> | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    stop() {
      stopping ??= terminate(child, exited);
      return stopping;
    },
  };
}

async function terminate(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.stdin!.end(); // the watchdog reads EOF and sends redis-server SIGTERM
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

async function waitUntilReady(port: number, exited: Promise<number | null>, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS; // a start-up timeout: the system clock
  let hasExited = false;
  void exited.then(() => (hasExited = true));
  while (Date.now() < deadline) {
    if (hasExited) throw new Error(`redis-server exited during start-up:\n${output()}`);
    if ((await ping(port)) === '+PONG') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server did not answer PING on port ${port} within ${READY_TIMEOUT_MS / 1000}s:\n${output()}`);
}

/** Sends PING and resolves with the first reply line ('' when the connection fails). */
function ping(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let reply = '';
    const done = (value: string) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(1000, () => done(''));
    socket.on('error', () => done(''));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      const end = reply.indexOf('\r\n');
      if (end >= 0) done(reply.slice(0, end));
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function findOnPath(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

function readPid(file: string): number | null {
  if (!existsSync(file)) return null;
  const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
