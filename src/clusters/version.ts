/** This installation's version (package.json), sent in cluster heartbeats. */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const SERVICE_VERSION: string = (() => {
  try {
    return String((require('../../package.json') as { version?: string }).version ?? 'unknown');
  } catch {
    return 'unknown';
  }
})();
