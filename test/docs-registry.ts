/**
 * Which test runs which shell blocks of the documentation. Every fenced `bash`, `sh`, `shell` (or `zsh`) block
 * of README.md and docs/*.md must be covered by an entry here, or test/docs-coverage.test.ts fails; a block not
 * meant to run (output, production configuration) is a `text` or `console` block instead.
 *
 * A test named here reads its blocks with `docBlocks('<id>')` (test/helpers/docs.ts), so the declaration is
 * the code that runs. `generic: true` hands a file to test/docs-run.test.ts, which runs the README's
 * quickstart and then the entry's blocks, in order, in one bash shell with `set -euo pipefail`, against a fresh
 * service process on the embedded database, with the environment test/readme-using-it.test.ts gives "Using it"
 * (test/helpers/docs-env.ts: receivers on 127.0.0.1 for the example hosts, `WEBHOOK_URL_ALLOWLIST=127.0.0.1`, a
 * stand-in `nvidia-smi`). A new docs/<topic>.md with shell blocks needs one line here to be run:
 *
 *   { id: '<topic>', file: 'docs/<topic>.md', test: 'test/docs-run.test.ts', generic: true },
 */
export interface DocRun {
  /** The name its test asks for: `docBlocks('<id>')`. */
  id: string;
  /** README.md or docs/<topic>.md. */
  file: string;
  /** Only the blocks under these headings (exact heading text, any level, sub-headings included). */
  sections?: string[];
  /** Not the blocks under these headings. */
  exceptSections?: string[];
  /** The test file that runs the blocks. */
  test: string;
  /** Run by the generic runner (test/docs-run.test.ts) after the quickstart, against a fresh server. */
  generic?: boolean;
}

export const DOC_RUNS: DocRun[] = [
  { id: 'quickstart', file: 'README.md', sections: ['Quickstart: the first hour'], test: 'test/quickstart.test.ts' },
  { id: 'using', file: 'docs/using.md', test: 'test/readme-using-it.test.ts' },
  {
    id: 'integrating',
    file: 'docs/integrating.md',
    exceptSections: ['Typed clients from the contract'],
    test: 'test/readme-using-it.test.ts',
  },
  {
    id: 'typed-client',
    file: 'docs/integrating.md',
    sections: ['Typed clients from the contract'],
    test: 'test/openapi-client.test.ts',
  },
  { id: 'cli', file: 'docs/cli.md', test: 'test/docs-run.test.ts', generic: true },
  { id: 'accounts', file: 'docs/accounts.md', test: 'test/docs-run.test.ts', generic: true },
  { id: 'sso', file: 'docs/sso.md', test: 'test/docs-run.test.ts', generic: true },
  { id: 'pagerduty', file: 'docs/pagerduty.md', test: 'test/docs-run.test.ts', generic: true },
  { id: 'hardening', file: 'docs/hardening.md', test: 'test/docs-run.test.ts', generic: true },
  { id: 'paging', file: 'docs/paging.md', test: 'test/docs-run.test.ts', generic: true },
  {
    id: 'page-me',
    file: 'README.md',
    sections: ['Page me when an alert opens'],
    test: 'test/docs-run.test.ts',
    generic: true,
  },
  { id: 'routing', file: 'docs/routing.md', test: 'test/docs-run.test.ts', generic: true },
  { id: 'silences', file: 'docs/silences.md', test: 'test/docs-run.test.ts', generic: true },
];
