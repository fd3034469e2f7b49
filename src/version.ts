/**
 * The release this process runs: `package.json`'s semantic version (CHANGELOG.md has its section). The
 * OpenAPI document's `info.version`, `GET /api/v1/version` and GraphQL `serverInfo` all report it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from './project-root.js';

let version: string | undefined;

/** The running release's version, e.g. `1.0.0`. */
export function serviceVersion(): string {
  version ??= String(
    (JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version,
  );
  return version;
}
