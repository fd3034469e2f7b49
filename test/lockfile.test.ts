/**
 * What `npm install` and `npm ci` make of package.json and package-lock.json (issue 24, points 12 and 13),
 * offline, with npm itself where it decides:
 * - every locked package supports every Node version our `engines` declares (no EBADENGINE on Node 20, 22
 *   or 24), and npm on this machine's Node installs the lockfile without an EBADENGINE warning;
 * - the lockfile holds every platform's optional packages (rollup, esbuild, msgpackr-extract), so `npm ci`
 *   installs from it on linux-x64, linux-arm64, darwin-arm64 and win32-x64 (npm's own `--os`/`--cpu`
 *   resolve the tree for another platform: with a lockfile missing them it fails "Missing: … from lock file");
 * - `.ci/run` installs with `npm ci`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, REPO_ROOT } from './helpers/cli.js';

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  engines?: Record<string, string> | string[];
  optionalDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
}
const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
};

let dir: string;
beforeAll(() => {
  // package.json, the lockfile and what it links to (stubs/): all npm reads, and no node_modules.
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-lockfile-'));
  for (const f of ['package.json', 'package-lock.json', 'stubs'])
    fs.cpSync(path.join(REPO_ROOT, f), path.join(dir, f), { recursive: true });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `npm <args>` in the copy, offline with an empty cache of its own: only the lockfile can answer. */
function npm(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'npm',
      [...args, '--offline', '--cache', path.join(dir, '.npm-cache'), '--ignore-scripts', '--no-audit', '--no-fund'],
      {
        cwd: dir,
        // npm's own log level, whatever the caller's (`npm run -s test` exports npm_config_loglevel=silent,
        // which would hide the "add …" lines checked below).
        env: childEnv({ npm_config_engine_strict: undefined, npm_config_loglevel: 'notice' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('engines (no EBADENGINE)', () => {
  it('our engines name Node 20, 22 and 24 LTS, and every locked package supports all of that range', () => {
    const ours = pkg.engines.node;
    for (const v of ['20.19.0', '20.20.2', '22.13.0', '22.20.0', '24.0.0', '24.11.0'])
      expect(semver.satisfies(v, ours), `${v} in ${ours}`).toBe(true);
    expect(semver.satisfies(process.version, ours), `this machine's ${process.version}`).toBe(true);
    expect(lock.packages['']!.engines).toEqual(pkg.engines);
    const unsupported = Object.entries(lock.packages)
      .filter(
        ([name, e]) =>
          name && e.engines && !Array.isArray(e.engines) && e.engines.node && !semver.subset(ours, e.engines.node),
      )
      .map(([name, e]) => `${name}@${e.version} wants node ${(e.engines as Record<string, string>).node}`);
    expect(unsupported).toEqual([]);
  });

  it('npm install of the lockfile on this Node warns of no engine', { timeout: 120_000 }, async () => {
    const r = await npm(['install', '--dry-run']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).not.toMatch(/EBADENGINE|Unsupported engine/);
  });
});

describe('a lockfile for every platform', () => {
  const platforms: Array<{ os: string; cpu: string; rollup: string[]; id: string }> = [
    { os: 'linux', cpu: 'x64', rollup: ['linux-x64-gnu'], id: 'linux-x64' },
    { os: 'linux', cpu: 'arm64', rollup: ['linux-arm64-gnu'], id: 'linux-arm64' },
    { os: 'darwin', cpu: 'arm64', rollup: ['darwin-arm64'], id: 'darwin-arm64' },
    { os: 'win32', cpu: 'x64', rollup: ['win32-x64-msvc'], id: 'win32-x64' },
  ];

  it('every optional dependency of every locked package is in the lockfile, with its version and integrity', () => {
    const missing: string[] = [];
    for (const [name, e] of Object.entries(lock.packages)) {
      for (const dep of Object.keys(e.optionalDependencies ?? {})) {
        // Node's lookup: the package's own node_modules, then each enclosing one up to the root.
        let base = name;
        let found: LockEntry | undefined;
        for (;;) {
          found = lock.packages[`${base ? base + '/' : ''}node_modules/${dep}`];
          if (found || !base) break;
          const i = base.lastIndexOf('/node_modules/');
          base = i < 0 ? '' : base.slice(0, i);
        }
        if (!found) missing.push(`${name} → ${dep}`);
        // (`resolved` may be left out: npm's omit-lockfile-registry-resolved keeps the lockfile registry-neutral.)
        else if (!found.link && !(found.version && found.integrity))
          missing.push(`${name} → ${dep} (no version/integrity)`);
      }
    }
    expect(missing).toEqual([]);
    for (const p of platforms) {
      const [o, c] = [p.os, p.cpu];
      for (const name of [
        ...p.rollup.map((r) => `@rollup/rollup-${r}`),
        `@esbuild/${p.id}`,
        `@msgpackr-extract/msgpackr-extract-${p.id}`,
      ]) {
        const e = lock.packages[`node_modules/${name}`];
        expect(e, `${name} in package-lock.json`).toBeDefined();
        expect(e!.os, name).toContain(o);
        expect(e!.cpu, name).toContain(c);
      }
    }
  });

  for (const p of platforms) {
    it(
      `npm ci installs from it on ${p.id} (npm --os ${p.os} --cpu ${p.cpu}), with that platform's rollup, esbuild and msgpackr-extract`,
      { timeout: 120_000 },
      async () => {
        const r = await npm(['ci', '--dry-run', `--os=${p.os}`, `--cpu=${p.cpu}`]);
        expect(r.code, r.out).toBe(0);
        for (const name of [
          ...p.rollup.map((x) => `@rollup/rollup-${x}`),
          `@esbuild/${p.id}`,
          `@msgpackr-extract/msgpackr-extract-${p.id}`,
        ])
          expect(r.out).toMatch(new RegExp(`^add ${name} \\d`, 'm'));
        expect(r.out).not.toMatch(/EBADENGINE/);
      },
    );
  }

  it('.ci/run installs with npm ci', () => {
    const ci = fs.readFileSync(path.join(REPO_ROOT, '.ci/run'), 'utf8');
    const commands = ci.split('\n').filter((l) => /^\s*npm (ci|install|i)\b/.test(l));
    expect(commands.map((l) => l.trim())).toEqual([expect.stringMatching(/^npm ci\b/)]);
  });
});
