// The image's HEALTHCHECK: GET /readyz on this container's port (Postgres and Redis reachable).
// A worker-only container (RUN_HTTP=false) serves no HTTP; while its process lives it counts as healthy.
if (process.env.RUN_HTTP === 'false' || process.env.OPS_ROLE === 'worker') process.exit(0);
const port = process.env.PORT || '8080';
try {
  const res = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(4000) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
