/**
 * The health verdict of one GPU, with its reasons: pure, from the latest sample and what the service
 * remembers of the GPU (its last XID and when it was seen).
 */
import { describeXid } from './xid.js';
import type { GpuMetric } from './samples.js';

export type GpuHealth = 'healthy' | 'warning' | 'critical' | 'missing' | 'unknown';

export interface HealthLimits {
  /** °C at or above which a GPU is a warning / critical. */
  temperatureWarnC: number;
  temperatureCriticalC: number;
  /** Samples expected this often; none for `missingAfterIntervals` of them makes the GPU missing. */
  intervalMs: number;
  missingAfterIntervals: number;
  /** An XID this recent counts against the GPU. */
  xidWindowMs: number;
}

export const DEFAULT_HEALTH_LIMITS: HealthLimits = {
  temperatureWarnC: 83,
  temperatureCriticalC: 90,
  intervalMs: 10_000,
  missingAfterIntervals: 6,
  xidWindowMs: 3600_000,
};

export interface HealthInput {
  latest: Partial<Record<GpuMetric, number | null>> | null;
  lastSeenAt: Date | null;
  lastXid: number | null;
  lastXidAt: Date | null;
}

const RANK: Record<GpuHealth, number> = { unknown: 0, healthy: 1, warning: 2, critical: 3, missing: 4 };

export function worst(a: GpuHealth, b: GpuHealth): GpuHealth {
  return RANK[b] > RANK[a] ? b : a;
}

export function gpuHealth(
  input: HealthInput,
  now: Date,
  limits: HealthLimits = DEFAULT_HEALTH_LIMITS,
): { status: GpuHealth; reasons: string[] } {
  const missingAfter = limits.intervalMs * limits.missingAfterIntervals;
  if (!input.lastSeenAt || !input.latest) return { status: 'unknown', reasons: ['no telemetry yet'] };
  if (now.getTime() - input.lastSeenAt.getTime() > missingAfter) {
    return {
      status: 'missing',
      reasons: [
        `no sample for ${Math.round((now.getTime() - input.lastSeenAt.getTime()) / 1000)} s (expected every ${limits.intervalMs / 1000} s)`,
      ],
    };
  }
  let status: GpuHealth = 'healthy';
  const reasons: string[] = [];
  const s = input.latest;
  if (s.temperatureC != null && s.temperatureC >= limits.temperatureCriticalC) {
    status = worst(status, 'critical');
    reasons.push(`temperature ${s.temperatureC} °C ≥ ${limits.temperatureCriticalC} °C`);
  } else if (s.temperatureC != null && s.temperatureC >= limits.temperatureWarnC) {
    status = worst(status, 'warning');
    reasons.push(`temperature ${s.temperatureC} °C ≥ ${limits.temperatureWarnC} °C`);
  }
  if (s.powerW != null && s.powerLimitW != null && s.powerLimitW > 0 && s.powerW >= s.powerLimitW * 0.98) {
    status = worst(status, 'warning');
    reasons.push(`power ${s.powerW} W at its ${s.powerLimitW} W limit (throttling)`);
  }
  if (s.eccDbe != null && s.eccDbe > 0) {
    status = worst(status, 'critical');
    reasons.push(`${s.eccDbe} uncorrected (double-bit) ECC error(s)`);
  }
  if (input.lastXid && input.lastXidAt && now.getTime() - input.lastXidAt.getTime() <= limits.xidWindowMs) {
    const xid = describeXid(input.lastXid);
    status = worst(status, xid.severity === 'info' ? 'healthy' : xid.severity);
    reasons.push(`XID ${xid.code} (${xid.meaning}) at ${input.lastXidAt.toISOString()}`);
  }
  return { status, reasons };
}
