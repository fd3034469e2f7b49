/**
 * The project's directory (package.json, console/, prisma/, rest/*.yaml), the same whether the code runs
 * from its TypeScript sources (src/, under tsx) or compiled (dist/src/, what `npm start` runs).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const parent = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const PROJECT_ROOT = path.basename(parent) === 'dist' ? path.dirname(parent) : parent;
