/**
 * The operator console (a single-page application in `console/`, built by Vite into `console/dist`):
 * served at `/`, with client-side routes answered by its index.html. The API paths keep their JSON 404s.
 */
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Request, type Response, type NextFunction } from 'express';

export const CONSOLE_SOURCE_DIR = fileURLToPath(new URL('../../console', import.meta.url));
export const CONSOLE_DIST_DIR = path.join(CONSOLE_SOURCE_DIR, 'dist');

/** Paths that belong to the API or the tooling, never to the console's client-side routes. */
const NOT_CONSOLE = /^\/(?:api|graphql|graphiql|docs|openapi\.json|healthz|readyz|metrics)(?:[/?]|$)/;

export function consoleBuilt(dir = CONSOLE_DIST_DIR): boolean {
  return fs.existsSync(path.join(dir, 'index.html'));
}

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    if (d.name === 'dist' || d.name.startsWith('dist.tmp-') || d.name === 'node_modules') continue;
    const p = path.join(dir, d.name);
    newest = Math.max(newest, d.isDirectory() ? newestSourceMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** True when console/dist is missing or older than a file of the console's sources. */
export function consoleStale(): boolean {
  if (!consoleBuilt()) return true;
  return newestSourceMtime(CONSOLE_SOURCE_DIR) > fs.statSync(path.join(CONSOLE_DIST_DIR, 'index.html')).mtimeMs;
}

/**
 * `vite build` in a child process with NODE_ENV=production: React's production JSX runtime is chosen
 * from NODE_ENV, which is `test` inside vitest; the server process also never loads the bundler.
 */
function viteBuild(outDir: string): Promise<void> {
  // The bin is not an export of the package: find it next to its package.json.
  const viteBin = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  const args = [viteBin, 'build', '--config', path.join(CONSOLE_SOURCE_DIR, 'vite.config.ts'), '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: CONSOLE_SOURCE_DIR, env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build exited with ${code}: ${stderr.trim().slice(-2000)}`))));
  });
}

const BUILD_LOCK = path.join(CONSOLE_SOURCE_DIR, '.build.lock');

/** Waits for another process's build to finish (two test files may start at once); false on timeout. */
async function takeBuildLock(): Promise<boolean> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      fs.mkdirSync(BUILD_LOCK);
      return true;
    } catch {
      // A lock left by a crashed builder is broken after 5 minutes.
      try {
        if (Date.now() - fs.statSync(BUILD_LOCK).mtimeMs > 300_000) fs.rmSync(BUILD_LOCK, { recursive: true, force: true });
      } catch {
        /* released meanwhile */
      }
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * Builds the console with Vite into `console/dist`: into a temporary folder first, then renamed, so a
 * server never serves half a build; one builder at a time (a second waits, then builds only if the
 * first one's result is already stale).
 */
export async function buildConsole(log: (msg: string) => void = () => {}, opts: { onlyIfStale?: boolean } = {}): Promise<void> {
  const locked = await takeBuildLock();
  try {
    if (opts.onlyIfStale && !consoleStale()) return;
    const tmp = `${CONSOLE_DIST_DIR}.tmp-${process.pid}-${Date.now()}`;
    log('building the console (console/ → console/dist)');
    await viteBuild(tmp);
    fs.rmSync(CONSOLE_DIST_DIR, { recursive: true, force: true });
    fs.renameSync(tmp, CONSOLE_DIST_DIR);
  } finally {
    if (locked) fs.rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

/**
 * Builds the console when `console/dist` is missing (a first `npm start` after an install that skipped
 * it) or older than its sources (after a pull).
 */
export async function ensureConsoleBuilt(log: (msg: string) => void = () => {}): Promise<void> {
  if (!consoleStale()) return;
  try {
    await buildConsole(log, { onlyIfStale: true });
  } catch (err) {
    log(`the console could not be built (${(err as Error).message}); the API runs without it. Run \`npm run console:build\`.`);
  }
}

/**
 * Static files of the built console, and its index.html for any other GET a browser navigates to
 * (Accept: text/html) outside the API paths. Hashed assets are cached for a year; index.html never.
 */
export function consoleApp(dir = CONSOLE_DIST_DIR): express.RequestHandler {
  const assets = express.static(dir, {
    index: false,
    setHeaders: (res, file) => {
      res.setHeader('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const index = path.join(dir, 'index.html');
  return (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || NOT_CONSOLE.test(req.path)) return next();
    assets(req, res, () => {
      const wantsPage = req.path === '/' || (req.headers.accept ?? '').includes('text/html');
      if (!wantsPage || !fs.existsSync(index)) return next();
      res.setHeader('cache-control', 'no-cache');
      // The console talks only to this origin; it is not framed by others.
      res.setHeader('content-security-policy', "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
      res.setHeader('x-content-type-options', 'nosniff');
      res.sendFile(index);
    });
  };
}
