/**
 * Who is on call, read from the database: a schedule's rows turned into the pure model of shifts.ts.
 */
import type { Prisma, PrismaClient, Schedule, ScheduleLayer, ScheduleOverride } from '../generated/prisma/client.js';
import { finalShifts, onCallAt, type Restriction, type ScheduleSpec, type Shift } from './shifts.js';

type Db = PrismaClient | Prisma.TransactionClient;

export type ScheduleRows = Schedule & { layers: ScheduleLayer[]; overrides: ScheduleOverride[] };

/** The pure model of a schedule's rows (layers by position, overrides in creation order). */
export function scheduleSpecOf(s: ScheduleRows): ScheduleSpec {
  return {
    timeZone: s.timeZone,
    layers: s.layers.map((l) => ({
      id: l.id,
      position: l.position,
      startsAt: l.startsAt,
      rotation: l.rotation,
      turnLengthSeconds: l.turnLengthSeconds,
      handoffTime: l.handoffTime,
      handoffWeekday: l.handoffWeekday,
      userIds: l.userIds,
      restrictions: (l.restrictions ?? []) as unknown as Restriction[],
    })),
    overrides: [...s.overrides]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      .map((o) => ({ id: o.id, userId: o.userId, startsAt: o.startsAt, endsAt: o.endsAt })),
  };
}

/** Loads a schedule with its layers and overrides (null when `db` cannot see it). */
export async function loadScheduleRows(db: Db, scheduleId: string): Promise<ScheduleRows | null> {
  return db.schedule.findUnique({
    where: { id: scheduleId },
    include: { layers: { orderBy: { position: 'asc' } }, overrides: true },
  });
}

/** Loads schedules of `tenantId` with their layers and overrides in one query, by id (missing ids are absent). */
export async function loadSchedulesRows(db: Db, tenantId: string, ids: string[]): Promise<Map<string, ScheduleRows>> {
  if (ids.length === 0) return new Map();
  const rows = await db.schedule.findMany({
    where: { id: { in: [...new Set(ids)] }, tenantId },
    include: { layers: { orderBy: { position: 'asc' } }, overrides: true },
  });
  return new Map(rows.map((r) => [r.id, r]));
}

/** The shift of whoever is on call for the schedule at `at` (null: nobody, or no such schedule). */
export async function whoIsOnCall(db: Db, scheduleId: string, at: Date): Promise<Shift | null> {
  const rows = await loadScheduleRows(db, scheduleId);
  return rows ? onCallAt(scheduleSpecOf(rows), at) : null;
}

/** The final shifts of a loaded schedule within [from, to). */
export function finalShiftsOf(schedule: ScheduleRows, from: Date, to: Date): Shift[] {
  return finalShifts(scheduleSpecOf(schedule), from, to);
}
