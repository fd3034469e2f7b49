/**
 * The record of refused ingests: every refusal of POST /events (401, 422, 429, and each rejected
 * item of a batch) is logged at `warn` with the tenant (or the first characters of the key that was
 * sent, never the key), the status and the reason, and counted in
 * `events_ingest_rejected_total{status, reason}`, so a misconfigured sender is visible to the operator.
 */
import type { Runtime } from '../runtime.js';
import type { DomainError } from '../errors.js';
import { restError } from '../http/error-mapping.js';
import { eventsIngestRejected } from '../metrics.js';

/** Characters of a presented ingest key that a log line may show (as the key's stored prefix). */
const KEY_PREFIX_LENGTH = 10;

/** Who sent a refused ingest: the tenant once the key is known, else the key's first characters. */
export interface IngestSender {
  tenantId?: string | null;
  key?: string | null;
}

/** Logs and counts one refused ingest (or refused batch item). Never throws. */
export function recordRejectedIngest(
  rt: Runtime,
  sender: IngestSender,
  err: DomainError,
  extra: Record<string, unknown> = {},
): void {
  const { status, body } = restError(err);
  eventsIngestRejected.inc({ status: String(status), reason: body.code });
  rt.logger.warn(
    {
      ...(sender.tenantId
        ? { tenantId: sender.tenantId }
        : { keyPrefix: sender.key?.slice(0, KEY_PREFIX_LENGTH) ?? null }),
      status,
      reason: body.code,
      detail: body.detail,
      ...extra,
    },
    'ingest rejected',
  );
}
