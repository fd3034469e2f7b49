/** This installation's version (package.json), sent in cluster heartbeats. */
import { createRequire } from 'node:module';
import path from 'node:path';
import { PROJECT_ROOT } from '../project-root.js';

const require = createRequire(path.join(PROJECT_ROOT, 'package.json'));

export const SERVICE_VERSION: string = (() => {
  try {
    return String((require('./package.json') as { version?: string }).version ?? 'unknown');
  } catch {
    return 'unknown';
  }
})();
