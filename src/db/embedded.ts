/**
 * Embedded Postgres for running without DATABASE_URL: PGlite (Postgres compiled to WebAssembly, data
 * persisted in a directory) served over the Postgres wire protocol by pglite-socket, so `pg`, Prisma's
 * adapter-pg and psql connect to it like to any server.
 *
 * PGlite is a single session. pglite-socket multiplexes the connections it accepts onto it: statements
 * are queued, and while one connection is inside a transaction the others wait. Session state (SET,
 * advisory locks, prepared statement names) is shared, so clients should use a pool of one connection
 * (`new PrismaPg({ connectionString: url, max: 1 })`); the few extra slots only absorb reconnects and an
 * occasional psql.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  /** `postgresql://postgres:postgres@127.0.0.1:<port>/postgres?sslmode=disable` */
  url: string;
  /** Stops accepting connections, closes PGlite (flushing it to disk) and releases the data directory. */
  stop(): Promise<void>;
}

const MAX_SOCKET_CONNECTIONS = 4;
const LOCK_FILE = 'embedded-postgres.lock';

/**
 * Starts PGlite on `dataDir` (created if missing; `memory://` for a throwaway database) and serves it on
 * 127.0.0.1:`port` (0, the default, picks a free port). Resolves once the server accepts connections.
 *
 * Guarantees: data written before `stop()` is there on the next start with the same `dataDir`; a second
 * start on a directory still in use (this or another live process) fails instead of corrupting it; the
 * returned URL works with `pg` and with `PrismaPg` using `max: 1`.
 */
export async function startEmbeddedPostgres(dataDir: string, port = 0): Promise<EmbeddedPostgres> {
  const inMemory = dataDir.startsWith('memory://');
  const releaseLock = inMemory ? () => {} : lockDataDir(path.resolve(dataDir));
  let db: PGlite | undefined;
  try {
    // pg_trgm backs the timeline's text search indexes (the migrations create the extension).
    db = await PGlite.create(inMemory ? dataDir : path.resolve(dataDir), { extensions: { pg_trgm } });
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: MAX_SOCKET_CONNECTIONS });
    await server.start();
    const url = `postgresql://postgres:postgres@${server.getServerConn()}/postgres?sslmode=disable`;
    const openDb = db;
    let stopping: Promise<void> | undefined;
    return {
      url,
      stop() {
        stopping ??= (async () => {
          try {
            await server.stop();
            await openDb.close();
          } finally {
            releaseLock();
          }
        })();
        return stopping;
      },
    };
  } catch (err) {
    await db?.close().catch(() => {});
    releaseLock();
    throw err;
  }
}

/** Claims `dir` for this process with a pid file, so two PGlite instances never share one directory. */
function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(holder) && isAlive(holder)) {
        throw new Error(
          `The embedded database in ${dir} is in use by process ${holder}. Stop it, or use another data directory ` +
            `(if no such process runs, delete ${lockPath}).`,
        );
      }
      rmSync(lockPath, { force: true }); // left behind by a process that died
    }
  }
  throw new Error(`Could not lock ${dir} for the embedded database`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** PGlite opened on its own for operator maintenance (backup, restore), with no socket server. */
export interface MaintenanceHandle {
  pglite: PGlite;
  close(): Promise<void>;
}

/**
 * Opens the embedded database in `dataDir` for this process alone (failing, like startEmbeddedPostgres,
 * while another process holds it). With `load`, a tarball from `dumpDataDir` becomes the directory's
 * content first (the directory must be empty).
 */
export async function openEmbeddedForMaintenance(dataDir: string, load?: Blob): Promise<MaintenanceHandle> {
  const dir = path.resolve(dataDir);
  const releaseLock = lockDataDir(dir);
  try {
    const pglite = await PGlite.create(dir, { extensions: { pg_trgm }, ...(load ? { loadDataDir: load } : {}) });
    return {
      pglite,
      close: async () => {
        try {
          await pglite.close();
        } finally {
          releaseLock();
        }
      },
    };
  } catch (err) {
    releaseLock();
    throw err;
  }
}
