/**
 * The breaking-change guard (docs/api-evolution.md): compares the released baselines in `contract/`
 * (`schema.graphql`, `openapi.json`) with the current schema and contract. A breaking change passes only
 * when the old side had deprecated what it removes or changes, and its removal date (GraphQL reason
 * `… removal after <date>`, OpenAPI `x-sunset`) has come; or when `package.json`'s major version is above
 * the baseline's and `CHANGELOG.md` has a section for it.
 */
import fs from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import semver from 'semver';
import { graphqlBreakingChanges, removalDate } from './graphql-diff.js';
import { openApiBreakingChanges } from './openapi-diff.js';

type Doc = Record<string, any>;

export const CONTRACT_DIR = path.resolve(import.meta.dirname, '..', '..', 'contract');

export interface ContractSide {
  /** The release's version (package.json's; for a baseline, its OpenAPI document's `info.version`). */
  version: string;
  /** The printed GraphQL schema. */
  sdl: string;
  /** The merged OpenAPI document as /openapi.json serves it (with `$ref`s). */
  openapi: Doc;
}

export interface GuardResult {
  /** Breaking changes that may not pass, one line each (empty: the guard passes). */
  blocked: string[];
  /** Breaking changes let through, and why. */
  allowed: string[];
  /** A major version bump with its CHANGELOG section lets every breaking change through. */
  majorRelease: boolean;
}

/** The committed baseline. */
export function readBaseline(dir = CONTRACT_DIR): ContractSide {
  const openapi = JSON.parse(fs.readFileSync(path.join(dir, 'openapi.json'), 'utf8')) as Doc;
  return {
    version: String(openapi.info?.version),
    sdl: fs.readFileSync(path.join(dir, 'schema.graphql'), 'utf8'),
    openapi,
  };
}

/** Whether `changelog` (Keep a Changelog) has a `## [version]` section. */
export function changelogHas(changelog: string, version: string): boolean {
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^## \\[${escaped}\\]`, 'm').test(changelog);
}

const today = (now: Date) => now.toISOString().slice(0, 10);

/** Compares `current` with `baseline` as of `now`. */
export async function checkContract(
  baseline: ContractSide,
  current: ContractSide,
  changelog: string,
  now: Date,
): Promise<GuardResult> {
  const majorRelease =
    semver.major(current.version) > semver.major(baseline.version) && changelogHas(changelog, current.version);
  const blocked: string[] = [];
  const allowed: string[] = [];
  const day = today(now);

  for (const c of await graphqlBreakingChanges(baseline.sdl, current.sdl)) {
    const line = `GraphQL ${c.path}: ${c.message}`;
    const date = removalDate(c.deprecationReason);
    if (majorRelease) allowed.push(`${line} (major release ${current.version})`);
    else if (!c.deprecationReason) blocked.push(`${line} (not deprecated first)`);
    else if (!date) blocked.push(`${line} (deprecated, but its reason names no "removal after <date>")`);
    else if (date > day) blocked.push(`${line} (deprecated, but not removable before ${date})`);
    else allowed.push(`${line} (deprecated, removal after ${date})`);
  }

  const deref = async (d: Doc) => (await SwaggerParser.dereference(structuredClone(d) as never)) as Doc;
  const [oldDoc, newDoc] = await Promise.all([deref(baseline.openapi), deref(current.openapi)]);
  for (const c of openApiBreakingChanges(oldDoc, newDoc)) {
    const line = `REST ${c.operation}${c.location ? ` ${c.location}` : ''}: ${c.message}`;
    if (majorRelease) allowed.push(`${line} (major release ${current.version})`);
    else if (!c.deprecated) blocked.push(`${line} (not deprecated first)`);
    else if (c.sunset && c.sunset > day) blocked.push(`${line} (deprecated, but its x-sunset is ${c.sunset})`);
    else allowed.push(`${line} (deprecated${c.sunset ? `, sunset ${c.sunset}` : ''})`);
  }
  return { blocked, allowed, majorRelease };
}
