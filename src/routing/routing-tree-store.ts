/**
 * A tenant's routing tree and named receivers, stored: read (members), replace (admins, declared on the
 * GraphQL fields), and the "which route does this alert take" check. The tree's rules are in
 * route-tree.ts; here it is checked against the tenant's receivers and time intervals as well.
 */
import { v7 as uuidv7 } from 'uuid';
import { requireUser, type Ctx } from '../context.js';
import { Conflict, NotFound, ValidationFailed, type FieldProblem } from '../errors.js';
import type { Prisma, PrismaClient, RoutingReceiver } from '../generated/prisma/client.js';
import type { Matcher } from './matchers.js';
import { defaultTree, matchRoutes, treeProblems, type ResolvedRoute, type RouteDoc } from './route-tree.js';
import { timeIntervalActive } from './time-interval-store.js';

type Db = Pick<PrismaClient, 'routingTree' | 'routingReceiver' | 'timeInterval'>;

export interface StoredTree {
  routes: RouteDoc[];
  /** False while the tenant never replaced the implicit default tree. */
  custom: boolean;
  updatedAt: Date | null;
}

/** The tenant's tree (the implicit default when none is stored). */
export async function loadRoutingTree(db: Pick<PrismaClient, 'routingTree'>, tenantId: string): Promise<StoredTree> {
  const row = await db.routingTree.findUnique({ where: { tenantId } });
  if (!row) return { routes: defaultTree(), custom: false, updatedAt: null };
  return { routes: row.routes as unknown as RouteDoc[], custom: true, updatedAt: row.updatedAt };
}

/** A route as the API sends it: any field but the id may be left out. */
export interface RouteInput {
  id?: string | null;
  parentId?: string | null;
  matchers?: Matcher[] | null;
  continue?: boolean | null;
  receiver?: string | null;
  groupBy?: string[] | null;
  groupWait?: string | null;
  groupInterval?: string | null;
  repeatInterval?: string | null;
  muteTimeIntervals?: string[] | null;
  activeTimeIntervals?: string[] | null;
}

/** Fills defaults; a route without an id gets a new one. */
export function normaliseRoutes(input: RouteInput[]): RouteDoc[] {
  return input.map((r) => ({
    id: r.id ?? uuidv7(),
    parentId: r.parentId ?? null,
    matchers: (r.matchers ?? []).map((m) => ({ name: m.name, type: m.type, value: m.value })),
    continue: r.continue ?? false,
    receiver: r.receiver ?? null,
    groupBy: r.groupBy ?? null,
    groupWait: r.groupWait ?? null,
    groupInterval: r.groupInterval ?? null,
    repeatInterval: r.repeatInterval ?? null,
    muteTimeIntervals: r.muteTimeIntervals ?? [],
    activeTimeIntervals: r.activeTimeIntervals ?? [],
  }));
}

/** Problems of a tree against the tenant's receivers and time intervals (names that do not exist). */
export async function referenceProblems(db: Db, routes: RouteDoc[]): Promise<FieldProblem[]> {
  const receivers = new Set((await db.routingReceiver.findMany({ select: { name: true } })).map((r) => r.name));
  const intervals = new Set((await db.timeInterval.findMany({ select: { name: true } })).map((t) => t.name));
  const problems: FieldProblem[] = [];
  routes.forEach((r, i) => {
    if (r.receiver !== null && !receivers.has(r.receiver))
      problems.push({
        loc: ['routes', String(i), 'receiver'],
        msg: `no receiver named "${r.receiver}"; create it first`,
      });
    for (const f of ['muteTimeIntervals', 'activeTimeIntervals'] as const)
      for (const n of r[f])
        if (!intervals.has(n))
          problems.push({ loc: ['routes', String(i), f], msg: `no time interval named "${n}"; create it first` });
  });
  return problems;
}

/** Checks a whole tree; throws ValidationFailed located at the input's `routes`. */
export async function checkTree(db: Db, routes: RouteDoc[]): Promise<void> {
  const shape = treeProblems(routes);
  const problems = shape.length ? shape : await referenceProblems(db, routes);
  if (problems.length) throw new ValidationFailed(problems.map((p) => ({ ...p, loc: ['input', ...p.loc] })));
}

/** Replaces the tenant's tree with `input` (validated whole); returns it as stored. */
export async function replaceRoutingTree(ctx: Ctx, input: RouteInput[]): Promise<StoredTree> {
  const routes = normaliseRoutes(input);
  await checkTree(ctx.db, routes);
  const json = routes as unknown as Prisma.InputJsonValue;
  const row = await ctx.db.routingTree.upsert({
    where: { tenantId: requireUser(ctx).tenantId },
    create: { routes: json } as never,
    update: { routes: json },
  });
  return { routes, custom: true, updatedAt: row.updatedAt };
}

/** One route an alert takes, with its receiver and whether its time intervals mute it now. */
export interface RouteTestResult extends ResolvedRoute {
  receiverRow: RoutingReceiver | null;
  /** A mute interval is active, or active intervals are named and none is active. */
  mutedNow: boolean;
}

/** Whether the route's time intervals mute it at `at` (an unknown name counts as inactive). */
export async function routeMutedAt(
  db: Pick<PrismaClient, 'timeInterval'>,
  tenantId: string,
  route: Pick<ResolvedRoute, 'muteTimeIntervals' | 'activeTimeIntervals'>,
  at: Date,
): Promise<boolean> {
  const names = [...route.muteTimeIntervals, ...route.activeTimeIntervals];
  if (!names.length) return false;
  const rows = await db.timeInterval.findMany({ where: { tenantId, name: { in: names } } });
  const active = (n: string) => rows.some((r) => r.name === n && timeIntervalActive(r, at));
  if (route.muteTimeIntervals.some(active)) return true;
  return route.activeTimeIntervals.length > 0 && !route.activeTimeIntervals.some(active);
}

/** "Which route does this alert take": the routes a label set matches, in order, with receivers. */
export async function testRoute(ctx: Ctx, labels: Record<string, unknown>): Promise<RouteTestResult[]> {
  const problems: FieldProblem[] = [];
  const set: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels ?? {})) {
    if (typeof v !== 'string') problems.push({ loc: ['labels', k], msg: 'must be a string' });
    else set[k] = v;
  }
  if (problems.length) throw new ValidationFailed(problems);
  const tree = await loadRoutingTree(ctx.db, requireUser(ctx).tenantId);
  const matched = matchRoutes(tree.routes, set);
  const names = [...new Set(matched.map((m) => m.receiver).filter((n): n is string => n !== null))];
  const receivers = await ctx.db.routingReceiver.findMany({ where: { name: { in: names } } });
  const now = ctx.rt.clock.now();
  const out: RouteTestResult[] = [];
  for (const m of matched)
    out.push({
      ...m,
      receiverRow: receivers.find((r) => r.name === m.receiver) ?? null,
      mutedNow: await routeMutedAt(ctx.db, requireUser(ctx).tenantId, m, now),
    });
  return out;
}

export interface ReceiverInput {
  name?: string | null;
  escalationPolicyId?: string | null;
  outboundWebhookIds?: string[] | null;
}

async function checkReceiver(ctx: Ctx, input: ReceiverInput, create: boolean): Promise<void> {
  const problems: FieldProblem[] = [];
  if ((create || input.name != null) && (typeof input.name !== 'string' || !/^\S(.{0,198}\S)?$/.test(input.name)))
    problems.push({ loc: ['input', 'name'], msg: 'must be 1 to 200 characters without surrounding spaces' });
  if (input.escalationPolicyId) {
    const p = await ctx.db.escalationPolicy.findUnique({ where: { id: input.escalationPolicyId } });
    if (!p) problems.push({ loc: ['input', 'escalationPolicyId'], msg: 'must be an escalation policy of this tenant' });
  }
  const hooks = input.outboundWebhookIds ?? [];
  if (hooks.length > 20) problems.push({ loc: ['input', 'outboundWebhookIds'], msg: 'at most 20 webhooks' });
  else if (hooks.length) {
    const found = await ctx.db.outboundWebhook.count({ where: { id: { in: hooks } } });
    if (found !== new Set(hooks).size)
      problems.push({ loc: ['input', 'outboundWebhookIds'], msg: 'must be outbound webhooks of this tenant' });
  }
  if (problems.length) throw new ValidationFailed(problems);
}

const unique = (err: unknown) => (err as { code?: string })?.code === 'P2002';

/** Creates a named receiver (409 ALREADY_EXISTS for a name in use). */
export async function createRoutingReceiver(ctx: Ctx, input: ReceiverInput): Promise<RoutingReceiver> {
  await checkReceiver(ctx, input, true);
  try {
    return await ctx.db.routingReceiver.create({
      data: {
        name: input.name!,
        escalationPolicyId: input.escalationPolicyId ?? null,
        outboundWebhookIds: [...new Set(input.outboundWebhookIds ?? [])],
      } as never,
    });
  } catch (err) {
    if (unique(err)) throw new Conflict(`A receiver named "${input.name}" exists.`, 'ALREADY_EXISTS');
    throw err;
  }
}

/** Points a receiver at a policy and/or webhooks (a name change is refused while routes use the old name). */
export async function updateRoutingReceiver(ctx: Ctx, id: string, input: ReceiverInput): Promise<RoutingReceiver> {
  const current = await ctx.db.routingReceiver.findUnique({ where: { id } });
  if (!current) throw new NotFound('Receiver');
  await checkReceiver(ctx, input, false);
  if (input.name != null && input.name !== current.name && (await receiverInUse(ctx, current.name)))
    throw new Conflict(`Routes send to "${current.name}"; change them before renaming it.`, 'IN_USE');
  const data: Prisma.RoutingReceiverUpdateInput = {};
  if (input.name != null) data.name = input.name;
  if (input.escalationPolicyId !== undefined) data.escalationPolicyId = input.escalationPolicyId;
  if (input.outboundWebhookIds != null) data.outboundWebhookIds = [...new Set(input.outboundWebhookIds)];
  try {
    return await ctx.db.routingReceiver.update({ where: { id }, data });
  } catch (err) {
    if (unique(err)) throw new Conflict(`A receiver named "${input.name}" exists.`, 'ALREADY_EXISTS');
    throw err;
  }
}

async function receiverInUse(ctx: Ctx, name: string): Promise<boolean> {
  const tree = await loadRoutingTree(ctx.db, requireUser(ctx).tenantId);
  return tree.routes.some((r) => r.receiver === name);
}

/** Deletes a receiver no route sends to (409 IN_USE otherwise). */
export async function deleteRoutingReceiver(ctx: Ctx, id: string): Promise<RoutingReceiver> {
  const current = await ctx.db.routingReceiver.findUnique({ where: { id } });
  if (!current) throw new NotFound('Receiver');
  if (await receiverInUse(ctx, current.name))
    throw new Conflict(`Routes send to "${current.name}"; change them first.`, 'IN_USE');
  await ctx.db.routingReceiver.delete({ where: { id } });
  return current;
}
