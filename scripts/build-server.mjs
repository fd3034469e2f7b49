/**
 * Compiles the service's TypeScript (src/, schema/, rest/, workers/) to JavaScript under dist/, file by
 * file with esbuild (types are checked by `tsc --noEmit`, not here), so `npm start` runs plain Node
 * without a TypeScript loader. Run by `npm install` (postinstall) and by scripts/start.mjs whenever a
 * source file is newer than the last build. Plain JavaScript: it must run before anything is compiled.
 *
 *   node scripts/build-server.mjs             build
 *   node scripts/build-server.mjs --if-stale  build only when a source is newer than dist/
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST_DIR = path.join(ROOT, 'dist');
const SOURCE_DIRS = ['src', 'schema', 'rest', 'workers'];
/** Written last: its mtime is the build's, and its absence means no complete build. */
const STAMP = '.built';

function sourceFiles(dir, out = []) {
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) sourceFiles(p, out);
    else if (d.name.endsWith('.ts') && !d.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function allSources() {
  return SOURCE_DIRS.flatMap((d) => sourceFiles(path.join(ROOT, d)));
}

/** True when dist/ is missing, incomplete, or older than a source file (a pull, an edit, `npm run generate`). */
export function serverStale() {
  let built;
  try {
    built = fs.statSync(path.join(DIST_DIR, STAMP)).mtimeMs;
  } catch {
    return true;
  }
  // A source file added or removed (a pull) changes its directory's mtime as well.
  return allSources().some((f) => fs.statSync(f).mtimeMs > built || fs.statSync(path.dirname(f)).mtimeMs > built);
}

/**
 * Builds into a fresh directory and swaps it in by renames, so a process starting meanwhile never loads
 * a half-written tree; when two processes build at once, the later swap wins with an equal tree.
 */
export async function buildServer() {
  const { build } = await import('esbuild');
  const tmp = `${DIST_DIR}.tmp-${process.pid}-${Date.now()}`;
  await build({
    entryPoints: allSources(),
    outdir: tmp,
    outbase: ROOT,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
  });
  fs.writeFileSync(path.join(tmp, STAMP), new Date().toISOString() + '\n');
  const old = `${DIST_DIR}.old-${process.pid}-${Date.now()}`;
  try {
    if (fs.existsSync(DIST_DIR)) fs.renameSync(DIST_DIR, old);
    fs.renameSync(tmp, DIST_DIR);
  } catch (err) {
    // Another process swapped its build in between our two renames: keep that one.
    if (!fs.existsSync(path.join(DIST_DIR, STAMP))) throw err;
  } finally {
    fs.rmSync(old, { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Builds dist/, saying so through `log` (before, and with the time it took). */
async function timedBuild(log) {
  const started = Date.now();
  log('building the server (TypeScript → dist/)');
  await buildServer();
  log(`server built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Rebuilds dist/ when it is stale (`npm start`, `npm run ops`), saying so through `log`. */
export async function buildServerIfStale(log) {
  if (serverStale()) await timedBuild(log);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const log = (line) => console.log(line);
  if (process.argv.includes('--if-stale')) await buildServerIfStale(log);
  else await timedBuild(log);
}
