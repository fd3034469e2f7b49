/**
 * The shell blocks of README.md and docs/*.md, and which test runs each (test/docs-registry.ts). Tests take
 * the blocks they run through `docRun(id)`, so what the registry declares is what they run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './cli.js';
import { DOC_RUNS, type DocRun } from '../docs-registry.js';

/** Fence languages that are shell commands: each such block must be run by a test. */
export const SHELL_LANGS = new Set(['bash', 'sh', 'shell', 'zsh']);

export interface FencedBlock {
  /** The fence's language (`bash`, `text`, …); '' for a fence without one. */
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The headings the block sits under, outermost first (their text without the #s). */
  headings: string[];
}

/** Every fenced block of a Markdown text, with the headings it sits under. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  const stack: Array<{ level: number; text: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    const heading = /^(#{1,6})\s+(.*?)\s*$/.exec(lines[i]!);
    if (heading) {
      const level = heading[1]!.length;
      while (stack.length && stack[stack.length - 1]!.level >= level) stack.pop();
      stack.push({ level, text: heading[2]! });
      continue;
    }
    const open = /^```([\w-]*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    if (i >= lines.length) throw new Error(`unclosed fence at line ${start + 1}`);
    blocks.push({ lang: open[1]!, code: body.join('\n'), line: start + 1, headings: stack.map((h) => h.text) });
  }
  return blocks;
}

/** The documentation files whose shell blocks must be run: README.md and every docs/*.md. */
export function documentationFiles(root = REPO_ROOT): string[] {
  const docs = fs.existsSync(path.join(root, 'docs'))
    ? fs
        .readdirSync(path.join(root, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .sort()
        .map((f) => `docs/${f}`)
    : [];
  return ['README.md', ...docs];
}

/** Whether a block of `file` is one that `run` runs. */
export function runCovers(run: DocRun, file: string, block: FencedBlock): boolean {
  if (run.file !== file || !SHELL_LANGS.has(block.lang)) return false;
  if (run.sections && !run.sections.some((s) => block.headings.includes(s))) return false;
  if (run.exceptSections?.some((s) => block.headings.includes(s))) return false;
  return true;
}

/** The shell blocks a run covers, in the order of its file. */
export function blocksOf(run: DocRun, root = REPO_ROOT): FencedBlock[] {
  const text = fs.readFileSync(path.join(root, run.file), 'utf8');
  return fencedBlocks(text).filter((b) => runCovers(run, run.file, b));
}

/** The registry entry `id`, for the test that runs it. */
export function docRun(id: string): DocRun {
  const run = DOC_RUNS.find((r) => r.id === id);
  if (!run) throw new Error(`test/docs-registry.ts has no run "${id}"`);
  return run;
}

/** The code of the shell blocks of registry entry `id`, in order: what its test runs. */
export function docBlocks(id: string): string[] {
  return blocksOf(docRun(id)).map((b) => b.code);
}

/** Shell blocks of the documentation that no registry entry covers: `file:line` and the block's first line. */
export function uncoveredBlocks(runs: DocRun[], root = REPO_ROOT): string[] {
  const out: string[] = [];
  for (const file of documentationFiles(root)) {
    const blocks = fencedBlocks(fs.readFileSync(path.join(root, file), 'utf8'));
    for (const b of blocks) {
      if (!SHELL_LANGS.has(b.lang) || runs.some((r) => runCovers(r, file, b))) continue;
      out.push(`${file}:${b.line} (${b.headings.at(-1) ?? 'no heading'}): ${b.code.split('\n')[0]}`);
    }
  }
  return out;
}
