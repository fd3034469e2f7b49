/**
 * Who may act on an alert (acknowledge, snooze, resolve, assign, add a note), in one place (called by
 * src/alerts/actions.ts, assignment.ts, notes.ts, bulk.ts): any user of its tenant, people and service users
 * alike (an on-call bot may acknowledge what it handles), whatever their role; ingest keys and inbound
 * webhooks act for no one and may not. Another tenant's alert is never loaded (tenant scope), so it is a 404
 * before this rule is asked.
 */
import type { Principal } from '../principal.js';
import { Forbidden, Unauthenticated } from '../errors.js';

/** The user who acts on an alert (recorded on its timeline and, on acknowledge, as its assignee). */
export function alertActor(principal: Principal | null): Principal & { userId: string } {
  if (!principal) throw new Unauthenticated();
  if (!principal.userId) throw new Forbidden('Acting on an alert needs a user credential (PAT or session).');
  return principal as Principal & { userId: string };
}

/**
 * Who may hand an alert to someone (or take it back): the same users who may act on it, so a teammate can pass
 * an alert on without acknowledging it. The assignee must be a user of the alert's tenant (assignment.ts).
 */
export function alertAssigner(principal: Principal | null): Principal & { userId: string } {
  return alertActor(principal);
}
