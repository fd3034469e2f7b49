import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { concatDatamodel, readSchemaFiles, MIGRATIONS_DIR, SNAPSHOT_FILE } from './migration-new.js';
writeFileSync(path.join(MIGRATIONS_DIR, SNAPSHOT_FILE), concatDatamodel(readSchemaFiles()));
