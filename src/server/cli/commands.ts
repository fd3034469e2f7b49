/**
 * The operator commands. Each is a thin shell over the services in src/tenants, src/users and src/auth:
 * parse options → call the service → return a JSON value (for --json) and a human-readable text.
 * Every change is written to the tenant's audit log with credential kind `system`.
 */
import type { ParseArgsConfig } from 'node:util';
import type { Runtime } from '../../runtime.js';
import type { Clock } from '../../clock.js';
import { createCtx } from '../../context.js';
import type { Principal } from '../../principal.js';
import { starterRulesSeed } from '../../rules/suggestions.js';
import { createTenant, findTenant } from '../../tenants/tenants.js';
import { rotateIngestKey } from '../../tenants/ingest-keys.js';
import { insertUser } from '../../users/users.js';
import { mintToken } from '../../auth/tokens.js';
import { recordAudit, type AuditEntry } from '../../audit/audit.js';
import { NotFound } from '../../errors.js';
import { migrate } from './runtime.js';
import { gpuCollectCommand } from '../../gpu/cli.js';
import { clusterJoinCommand } from '../../clusters/cli.js';
import { runRetention } from '../../history/retention.js';

/** A mistake in how the command was called: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}

export type Values = Record<string, string | boolean | undefined>;

export interface CommandResult {
  json: unknown;
  text: string;
}

export interface Command {
  /** The words that select it, e.g. `tenant create`. */
  name: string;
  summary: string;
  /** Option synopsis shown in usage. */
  synopsis: string;
  options: NonNullable<ParseArgsConfig['options']>;
  required: string[];
  /** Which option a service's field problem (`loc` tail) is about, for error messages. */
  fieldOptions?: Record<string, string>;
  /** `db migrate` manages the schema itself; every other command runs on a migrated database. */
  migrates?: boolean;
  /** Needs no storage (e.g. `gpu collect` on a GPU host): run without a database or Runtime. */
  standalone?: boolean;
  /** Error classes that are mistakes in the call: printed with the usage, exit code 2. */
  usageErrors?: Array<new (...args: never[]) => Error>;
  /** `clock`: "now" for a standalone command (a Runtime brings its own). */
  run(rt: Runtime, values: Values, env: NodeJS.ProcessEnv, clock?: Clock): Promise<CommandResult>;
}

const OPERATOR: Omit<Principal, 'tenantId'> = {
  userId: null,
  email: null,
  role: null,
  userKind: null,
  credential: { kind: 'system', id: 'cli' },
};

/** Records an operator action in the tenant's audit log (actor: none, credential kind: system). */
async function audit(rt: Runtime, tenantId: string, entry: AuditEntry): Promise<void> {
  await recordAudit(createCtx(rt, { ...OPERATOR, tenantId }, 'cli'), [entry]);
}

async function tenantNamed(rt: Runtime, nameOrId: string) {
  const tenant = await findTenant(rt.prisma, nameOrId);
  if (!tenant) throw new NotFound(`Tenant "${nameOrId}"`);
  return tenant;
}

function str(values: Values, key: string): string {
  return String(values[key] ?? '');
}

/** `--expires-in-days`: a whole number of days, or `never` (the default). */
function expiryDays(raw: string | boolean | undefined): number | null {
  if (raw === undefined || raw === 'never') return null;
  const n = Number(raw);
  if (typeof raw !== 'string' || raw.trim() === '' || !Number.isInteger(n)) {
    throw new UsageError(
      `--expires-in-days must be a whole number of days (e.g. 30, 90, 365) or "never", got "${String(raw)}".`,
    );
  }
  return n;
}

const tenantCreate: Command = {
  name: 'tenant create',
  summary: 'Create a tenant with its first admin and ingest key (the key is shown once).',
  synopsis: '--name N --admin-email E --admin-password P [--starter-rules gpu.xid,gpu.thermal,…] [--json]',
  options: {
    name: { type: 'string' },
    'admin-email': { type: 'string' },
    'admin-password': { type: 'string' },
    'starter-rules': { type: 'string' },
  },
  required: ['name', 'admin-email', 'admin-password'],
  fieldOptions: {
    name: '--name',
    email: '--admin-email',
    password: '--admin-password',
    starterRules: '--starter-rules',
  },
  async run(rt, v) {
    const starterRules =
      typeof v['starter-rules'] === 'string'
        ? v['starter-rules']
            .split(',')
            .map((k) => k.trim())
            .filter(Boolean)
        : [];
    const created = await createTenant(
      rt.prisma,
      { name: str(v, 'name'), adminEmail: str(v, 'admin-email'), adminPassword: str(v, 'admin-password') },
      starterRulesSeed(starterRules, ['starterRules']),
    );
    await audit(rt, created.tenant.id, { action: 'createTenant', targetType: 'Tenant', targetId: created.tenant.id });
    return {
      json: {
        tenant: { id: created.tenant.id, name: created.tenant.name },
        admin: { id: created.admin.id, email: created.admin.email },
        ingest_key: created.ingestKey,
      },
      text: [
        `Tenant "${created.tenant.name}" created (id ${created.tenant.id}).`,
        `Admin: ${created.admin.email} (id ${created.admin.id})`,
        `Ingest key (shown only this once): ${created.ingestKey}`,
      ].join('\n'),
    };
  },
};

const userCreate: Command = {
  name: 'user create',
  summary: 'Create a user in a tenant: a person (who logs in) or, with --service, a service user (PATs only).',
  synopsis: '--tenant N --email E [--password P] --role admin|member [--service] [--name NAME] [--json]',
  options: {
    tenant: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    role: { type: 'string' },
    service: { type: 'boolean' },
    name: { type: 'string' },
  },
  required: ['tenant', 'email', 'role'],
  fieldOptions: { email: '--email', password: '--password', name: '--name' },
  async run(rt, v) {
    const role = str(v, 'role');
    if (role !== 'admin' && role !== 'member') throw new UsageError(`--role must be admin or member, got "${role}".`);
    const tenant = await tenantNamed(rt, str(v, 'tenant'));
    const kind = v.service ? 'service' : 'human';
    const user = await insertUser(rt.prisma, tenant.id, {
      email: str(v, 'email'),
      name: typeof v.name === 'string' ? v.name : null,
      password: typeof v.password === 'string' ? v.password : null,
      role,
      kind,
    });
    await audit(rt, tenant.id, { action: 'createUser', targetType: 'User', targetId: user.id });
    return {
      json: {
        id: user.id,
        email: user.email,
        role: user.role,
        kind: user.kind,
        tenant: { id: tenant.id, name: tenant.name },
      },
      text: `${kind === 'service' ? 'Service user' : 'User'} ${user.email} (${user.role}, id ${user.id}) created in tenant "${tenant.name}".`,
    };
  },
};

const tokenCreate: Command = {
  name: 'token create',
  summary: 'Mint a personal access token for a user (the token is shown once).',
  synopsis: '--email E --name N [--expires-in-days D|never] [--json]',
  options: { email: { type: 'string' }, name: { type: 'string' }, 'expires-in-days': { type: 'string' } },
  required: ['email', 'name'],
  fieldOptions: { name: '--name', expiresInDays: '--expires-in-days' },
  async run(rt, v) {
    const expiresInDays = expiryDays(v['expires-in-days']);
    const email = str(v, 'email').trim().toLowerCase();
    // Operator tooling: the one place besides login that finds a user across tenants, by login name.
    const user = await rt.prisma.user.findUnique({ where: { email } });
    if (!user) throw new NotFound(`User with email ${email}`);
    const asUser: Principal = {
      tenantId: user.tenantId,
      userId: user.id,
      email: user.email,
      role: user.role,
      userKind: user.kind,
      credential: { kind: 'system', id: 'cli' },
    };
    const minted = await mintToken(createCtx(rt, asUser, 'cli'), { name: str(v, 'name'), expiresInDays });
    await audit(rt, user.tenantId, { action: 'createToken', targetType: 'AccessToken', targetId: minted.token.id });
    const expires = minted.token.expiresAt ? `expires ${minted.token.expiresAt.toISOString()}` : 'never expires';
    return {
      json: { id: minted.token.id, token: minted.cleartext },
      text: [
        `Token "${minted.token.name}" for ${user.email} (id ${minted.token.id}, ${expires}).`,
        `Token (shown only this once): ${minted.cleartext}`,
      ].join('\n'),
    };
  },
};

const ingestKeyRotate: Command = {
  name: 'ingest-key rotate',
  summary: 'Issue a new ingest key for a tenant; the previous key keeps working for 24 hours.',
  synopsis: '--tenant N [--json]',
  options: { tenant: { type: 'string' } },
  required: ['tenant'],
  async run(rt, v) {
    const tenant = await tenantNamed(rt, str(v, 'tenant'));
    const key = await rotateIngestKey(rt.prisma, tenant.id, rt.clock.now());
    await audit(rt, tenant.id, { action: 'rotateIngestKey', targetType: 'IngestKey', targetId: key.id });
    const until = key.previousValidUntil.toISOString();
    return {
      json: {
        tenant: { id: tenant.id, name: tenant.name },
        id: key.id,
        ingest_key: key.cleartext,
        previous_key_valid_until: until,
      },
      text: [
        `New ingest key for tenant "${tenant.name}" (shown only this once): ${key.cleartext}`,
        `The previous key keeps working until ${until}.`,
      ].join('\n'),
    };
  },
};

const dbMigrate: Command = {
  name: 'db migrate',
  summary: 'Apply pending migrations from prisma/migrations (offline; the server also does this at start-up).',
  synopsis: '[--json]',
  options: {},
  required: [],
  migrates: true,
  async run(rt) {
    const applied = await migrate(rt.databaseUrl);
    return {
      json: { applied },
      text: applied.length
        ? `Applied ${applied.length} migration(s):\n${applied.map((m) => `  ${m}`).join('\n')}`
        : 'The database is up to date.',
    };
  },
};

const retentionRun: Command = {
  name: 'retention run',
  summary: 'Run retention now: create partitions ahead, drop expired ones, print what went per table.',
  synopsis: '[--json]',
  options: {},
  required: [],
  async run(rt) {
    const report = await runRetention(rt);
    const lines = report.tables.map(
      (t) =>
        `${t.table}: ${t.partitionsDropped.length} partitions dropped${t.partitionsDropped.length ? ` (${t.partitionsDropped.join(', ')})` : ''}, ${t.rowsDeleted} rows deleted`,
    );
    return {
      json: report,
      text: [`Retention at ${report.ranAt} (${report.partitionsCreated} partitions created ahead):`, ...lines].join(
        '\n',
      ),
    };
  },
};

export const commands: Command[] = [
  tenantCreate,
  userCreate,
  tokenCreate,
  ingestKeyRotate,
  dbMigrate,
  retentionRun,
  clusterJoinCommand,
  gpuCollectCommand as Command,
];
