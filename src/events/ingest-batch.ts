/**
 * Batch ingest: POST /events with an array of envelopes.
 *
 * `POST /events` also takes a JSON array of up to 100 envelopes. Each item is validated and stored on
 * its own (through the same batcher as single events, so the items of one request share an INSERT), and
 * the answer lists one result per item: a bad item never loses the good ones. Each item counts against
 * the ingest key's rate limit; the items past the budget are refused (`RATE_LIMITED`) and the others
 * kept.
 *
 * Refused items are recorded like refused requests (src/events/ingest-rejections.ts).
 */
import type { Ctx } from '../context.js';
import { DomainError, RateLimited, Unauthenticated, ValidationFailed, type FieldProblem } from '../errors.js';
import { restError } from '../http/error-mapping.js';
import { acceptEvent } from './ingest.js';
import { recordRejectedIngest } from './ingest-rejections.js';
import { consumeInboundItems } from './rate-limit.js';

/** Most envelopes in one batch. */
export const MAX_BATCH_ITEMS = 100;

export type BatchItemResult =
  | { index: number; status: 'accepted'; id: string }
  | { index: number; status: 'rejected'; code: string; detail: string | FieldProblem[] };

export interface BatchResult {
  accepted: number;
  rejected: number;
  items: BatchItemResult[];
  /** Set when items were refused by the rate limit: seconds until the budget refills. */
  retryAfterSeconds: number | null;
}

/** Prefixes a field problem of item `index` with the item's place in the request body. */
function itemProblems(index: number, err: DomainError): string | FieldProblem[] {
  const { body } = restError(err);
  if (typeof body.detail === 'string') return body.detail;
  return body.detail.map((p) => ({ loc: ['body', String(index), ...p.loc], msg: p.msg }));
}

/**
 * Stores the valid items of a batch for the caller's tenant; resolves once they are committed. The
 * request itself already counted once against `rateKey` (its first item); the others count here.
 * Throws ValidationFailed for an empty or over-long array (nothing is stored then).
 */
export async function acceptEventBatch(ctx: Ctx, items: unknown[], rateKey: string): Promise<BatchResult> {
  if (!ctx.principal) throw new Unauthenticated();
  if (items.length === 0 || items.length > MAX_BATCH_ITEMS)
    throw new ValidationFailed([{ loc: [], msg: `a batch holds 1 to ${MAX_BATCH_ITEMS} envelopes` }]);
  const rate = await consumeInboundItems(ctx.rt, rateKey, items.length - 1);
  const inBudget = 1 + rate.allowed;
  const results = await Promise.all(
    items.map(async (body, index): Promise<BatchItemResult> => {
      try {
        if (index >= inBudget) throw new RateLimited(rate.retryAfterSeconds ?? 1);
        const row = await acceptEvent(ctx, { body, endpoint: 'events', via: 'ingest' });
        return { index, status: 'accepted', id: row.id };
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        recordRejectedIngest(ctx.rt, { tenantId: ctx.principal!.tenantId }, err, { item: index });
        return { index, status: 'rejected', code: err.reason, detail: itemProblems(index, err) };
      }
    }),
  );
  const accepted = results.filter((r) => r.status === 'accepted').length;
  return {
    accepted,
    rejected: results.length - accepted,
    items: results,
    retryAfterSeconds: inBudget < items.length ? rate.retryAfterSeconds : null,
  };
}
