/**
 * In-process CPU profiles for benchmarks that run the service in their own process (bench:graph):
 * with BENCH_CPU_PROF=<dir>, `profiled(name, fn)` records a V8 CPU profile of just `fn` (one side of
 * the comparison) and writes it to <dir>/<name>.cpuprofile. Without it, `fn` simply runs.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { Session } from 'node:inspector/promises';

export async function profiled<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}
