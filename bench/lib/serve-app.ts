/**
 * Child process of a benchmark: the real service from environment configuration (DATABASE_URL,
 * REDIS_URL, …). BENCH_ROLE=api serves HTTP without workers; BENCH_ROLE=worker runs only the workers
 * (the scale-out layout: API nodes and worker processes). Prints `{"ready": {"url": …}}`.
 */
import { loadConfig } from '../../src/config.js';
import { startApp } from '../../src/server/app.js';

const role = process.env.BENCH_ROLE ?? 'api';
const app = await startApp(
  loadConfig(),
  role === 'worker' ? { http: false, workers: true } : { http: true, workers: false },
);
process.stdout.write(JSON.stringify({ ready: { url: app.url, role } }) + '\n');
process.on('SIGTERM', () => {
  void app.stop().then(() => process.exit(0));
});
