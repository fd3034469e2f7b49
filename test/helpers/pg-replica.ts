/**
 * A real Postgres hot standby of the test server (127.0.0.1:5432) for the scale tests: `pg_basebackup
 * -R` into a temporary directory, then `postgres` on a free port streaming from the primary. The binaries
 * are the primary's major version (/usr/lib/postgresql/<major>/bin); as root they run as the `postgres`
 * user (Postgres refuses root). Needs `host replication all 127.0.0.1/32 trust` in the primary's
 * pg_hba.conf, which `.ci/run` adds. `stop()` stops it and removes the directory.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { ADMIN_URL } from './env.js';
import { freePort } from './processes.js';
import { eventually } from './http.js';

const exec = promisify(execFile);

export interface PgReplica {
  port: number;
  /** The URL of database `name` on the replica. */
  url(name: string): string;
  /** Runs one statement on the replica's `postgres` database. */
  query<T extends pg.QueryResultRow>(sql: string): Promise<T[]>;
  stop(): Promise<void>;
}

/** argv that runs `cmd` as the postgres OS user when this process is root. */
function asPostgres(cmd: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

export async function startPgReplica(): Promise<PgReplica> {
  const primary = new URL(ADMIN_URL);
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const major = Math.floor(Number((await admin.query('SHOW server_version_num')).rows[0].server_version_num) / 10000);
  await admin.end();
  const bin = `/usr/lib/postgresql/${major}/bin`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-pg-replica-'));
  fs.chmodSync(dir, 0o755);
  if (process.getuid?.() === 0) await exec('chown', ['postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  const port = await freePort();
  let child: ChildProcess | undefined;
  const stop = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      // The child is runuser when this process is root, which does not pass a signal on to postgres:
      // pg_ctl stops the server itself (fast shutdown), then runuser exits with it.
      const [ccmd, cargs] = asPostgres(path.join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'fast', '-w', '-t', '60']);
      await exec(ccmd, cargs).catch(() => child!.kill('SIGKILL'));
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const [cmd, args] = asPostgres(path.join(bin, 'pg_basebackup'), [
      '-h',
      primary.hostname,
      '-p',
      primary.port || '5432',
      '-U',
      primary.username || 'postgres',
      '-D',
      data,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    await exec(cmd, args);
    const [pcmd, pargs] = asPostgres(path.join(bin, 'postgres'), [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${dir}`,
      '-c',
      'hot_standby=on',
      '-c',
      'config_file=' + path.join(data, 'postgresql.conf'),
      '-c',
      `hba_file=${path.join(data, 'pg_hba.conf')}`,
    ]);
    // pg_basebackup copies the data directory only (Debian keeps the configuration in /etc): write a minimal one.
    const writeAs = async (file: string, text: string) => {
      fs.writeFileSync(file, text);
      if (process.getuid?.() === 0) await exec('chown', ['postgres:postgres', file]);
    };
    if (!fs.existsSync(path.join(data, 'postgresql.conf'))) await writeAs(path.join(data, 'postgresql.conf'), '');
    await writeAs(path.join(data, 'pg_hba.conf'), 'host all all 127.0.0.1/32 trust\n');
    child = spawn(pcmd, pargs, { stdio: 'ignore' });
    const replicaUrl = (name: string) => `postgresql://${primary.username || 'postgres'}@127.0.0.1:${port}/${name}`;
    await eventually(
      async () => {
        const c = new pg.Client({ connectionString: replicaUrl('postgres') });
        try {
          await c.connect();
          return (await c.query('SELECT pg_is_in_recovery() AS r')).rows[0].r === true;
        } catch {
          return false;
        } finally {
          await c.end().catch(() => undefined);
        }
      },
      60_000,
      200,
    );
    return {
      port,
      url: replicaUrl,
      async query(sql) {
        const c = new pg.Client({ connectionString: replicaUrl('postgres') });
        await c.connect();
        try {
          return (await c.query(sql)).rows;
        } finally {
          await c.end();
        }
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
