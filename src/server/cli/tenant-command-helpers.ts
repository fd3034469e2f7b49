/**
 * What the tenant commands share: reading options, the tenant and acting user a command works in
 * (`--tenant`, `--as`), the system context for audit entries, and plain-text tables.
 */
import type { Runtime } from '../../runtime.js';
import { createCtx, type Ctx } from '../../context.js';
import type { Principal } from '../../principal.js';
import { findTenant } from '../../tenants/tenants.js';
import { recordAudit, type AuditEntry } from '../../audit/audit.js';
import { NotFound } from '../../errors.js';
import { UsageError, type Values } from './commands.js';

export type Severity = 'info' | 'warning' | 'critical';
const SEVERITIES: Severity[] = ['info', 'warning', 'critical'];

export function str(values: Values, key: string): string {
  return String(values[key] ?? '');
}

export function opt(values: Values, key: string): string | undefined {
  return typeof values[key] === 'string' ? (values[key] as string) : undefined;
}

/** `--severity critical,warning` → the list, or a usage error naming the option. */
export function severities(raw: string | undefined, option: string): Severity[] | undefined {
  if (raw === undefined) return undefined;
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.filter((s) => !SEVERITIES.includes(s as Severity));
  if (bad.length || list.length === 0)
    throw new UsageError(`${option} takes info, warning or critical (comma-separated), got "${raw}".`);
  return list as Severity[];
}

/** The tenant named or with the id `--tenant`, and the context the command acts in. */
export async function tenantCtx(rt: Runtime, v: Values): Promise<{ ctx: Ctx; tenant: { id: string; name: string } }> {
  const tenant = await findTenant(rt.prisma, str(v, 'tenant'));
  if (!tenant) throw new NotFound(`Tenant "${str(v, 'tenant')}"`);
  const as = opt(v, 'as');
  // Operator tooling: the acting user is found across tenants, then checked to be in this one.
  const actor = as
    ? await rt.prisma.user.findFirst({ where: { email: as.trim().toLowerCase(), tenantId: tenant.id } })
    : await rt.prisma.user.findFirst({
        where: { tenantId: tenant.id, role: 'admin', kind: 'human' },
        orderBy: { createdAt: 'asc' },
      });
  if (!actor)
    throw new NotFound(
      as
        ? `User ${as} in tenant "${tenant.name}"`
        : `An admin in tenant "${tenant.name}" (create one with "user create")`,
    );
  const principal: Principal = {
    tenantId: tenant.id,
    userId: actor.id,
    email: actor.email,
    role: actor.role,
    userKind: actor.kind,
    credential: { kind: 'system', id: 'cli' },
  };
  return { ctx: createCtx(rt, principal, 'cli'), tenant };
}

export async function audit(ctx: Ctx, entry: AuditEntry): Promise<void> {
  await recordAudit(ctx, [entry]);
}

export const TENANT_OPTS = { tenant: { type: 'string' }, as: { type: 'string' } } as const;

export function table(rows: string[][]): string {
  if (rows.length === 0) return '(none)';
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** A context of the tenant with no acting user (the `system` credential), for audit entries. */
export function systemCtx(rt: Runtime, tenantId: string): Ctx {
  return createCtx(
    rt,
    { tenantId, userId: null, email: null, role: null, userKind: null, credential: { kind: 'system', id: 'cli' } },
    'cli',
  );
}
