/**
 * NVIDIA dcgm-exporter. Pull: scrapes each target's Prometheus text (`GET <target>`, usually
 * `http://<node>:9400/metrics`) and records the GPU samples for the integration's tenant
 * (recordGpuSamples: GPUs, time series, health, `gpu.*` hardware events on the timeline). Scheduled
 * every `interval_seconds` by the `integration-pull` task, and on demand with
 * `POST /integrations/dcgm/ingest`. Health: one scrape of every target (nothing recorded).
 */
import type { Provider } from '../types.js';
import type { Principal } from '../../principal.js';
import { createCtx } from '../../context.js';
import { recordGpuSamples } from '../../gpu/telemetry.js';
import { describeFailures, scrapeDcgmTargets } from '../../gpu/scrape.js';

export const DCGM_MAX_TARGETS = 50;
export const DCGM_DEFAULT_INTERVAL_S = 30;

function targetsOf(config: Record<string, unknown>): string[] {
  return Array.isArray(config.targets) ? config.targets.filter((t): t is string => typeof t === 'string') : [];
}

export const dcgmProvider: Provider = {
  id: 'dcgm',
  name: 'NVIDIA DCGM exporter',
  description:
    'Scrapes dcgm-exporter endpoints (Prometheus text) every interval_seconds and records GPU telemetry, health and hardware events (/ai-factory).',
  capabilities: { push: false, pull: true, health: true },
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['targets'],
    properties: {
      targets: {
        type: 'array',
        items: { type: 'string', format: 'uri', maxLength: 2048 },
        minItems: 1,
        maxItems: DCGM_MAX_TARGETS,
        description: 'dcgm-exporter metrics URLs, e.g. http://gpu-node-1:9400/metrics (1 to 50).',
      },
      interval_seconds: {
        type: 'integer',
        minimum: 5,
        maximum: 3600,
        default: DCGM_DEFAULT_INTERVAL_S,
        description: 'Seconds between scheduled scrapes.',
      },
    },
  },
  pullEverySeconds: (config) =>
    typeof config.interval_seconds === 'number' ? config.interval_seconds : DCGM_DEFAULT_INTERVAL_S,
  async pull(pc) {
    if (!pc.integration) throw new Error('a dcgm pull records for an integration; none was given');
    const targets = targetsOf(pc.config);
    const scraped = await scrapeDcgmTargets(targets, { policy: pc.policy, timeoutMs: pc.timeoutMs }, pc.rt.clock.now());
    const up = scraped.targets.filter((t) => t.ok).length;
    if (up === 0) throw new Error(describeFailures(scraped.targets));
    // The integration row's tenant, as a system credential (like a worker acting for the tenant).
    const principal: Principal = {
      tenantId: pc.integration.tenantId,
      userId: null,
      email: null,
      role: null,
      userKind: null,
      credential: { kind: 'system', id: `integration:${pc.integration.id}` },
    };
    const recorded = await recordGpuSamples(
      createCtx(pc.rt, principal, `dcgm-pull-${pc.integration.id}`),
      scraped.samples,
      'dcgm',
    );
    // Telemetry arriving is what the freshness check (freshness_seconds) of a dcgm integration watches.
    if (scraped.samples.length)
      await pc.rt.prisma.integration.updateMany({
        where: { id: pc.integration.id, tenantId: pc.integration.tenantId },
        data: { lastEventAt: pc.rt.clock.now() },
      });
    const down = targets.length - up;
    return {
      signals: [],
      complete: false,
      summary: {
        targets_up: up,
        targets_down: down,
        gpus: recorded.gpus,
        samples: recorded.samples,
        gpu_events: recorded.events,
      },
      ...(down > 0 ? { error: describeFailures(scraped.targets) } : {}),
    };
  },
  async probe(pc) {
    const targets = targetsOf(pc.config);
    const started = performance.now();
    const scraped = await scrapeDcgmTargets(targets, { policy: pc.policy, timeoutMs: pc.timeoutMs }, pc.rt.clock.now());
    const latencyMs = Math.round(performance.now() - started);
    const up = scraped.targets.filter((t) => t.ok);
    if (up.length < targets.length)
      return {
        ok: false,
        latencyMs: up.length ? latencyMs : null,
        message: `${targets.length - up.length} of ${targets.length} target(s) failed: ${describeFailures(scraped.targets)}`,
      };
    return {
      ok: true,
      latencyMs,
      message: `${scraped.samples.length} GPU(s) on ${targets.length} target(s) in ${latencyMs} ms`,
    };
  },
};
