/**
 * Runs a TypeScript entry point (through tsx) in its own process, so the server under test does not
 * share an event loop with the load generator. The child prints one JSON line `{"ready": …}` when it
 * is listening; `stop()` sends SIGTERM and waits for the exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface Child<T> {
  info: T;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `node --import tsx <entry>` with `env` added; resolves with what the child reported.
 * With BENCH_CPU_PROF=<dir> each child writes a V8 CPU profile there when it exits. BENCH_START_TIMEOUT_S
 * (60) is how long a child may take to be ready (more on a heavily shared machine, where tsx compiles slowly).
 */
export async function startChild<T>(
  entry: string,
  env: Record<string, string>,
  timeoutMs = Number(process.env.BENCH_START_TIMEOUT_S ?? 60) * 1000,
): Promise<Child<T>> {
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', entry], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = await new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${entry} did not report ready within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        const msg = JSON.parse(line) as { ready?: T };
        if (msg.ready) {
          clearTimeout(timer);
          resolve(msg.ready);
        }
      } catch {
        /* not our line */
      }
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code} before it was ready`)));
  });
  return {
    info,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}
