/**
 * The built-in meters and the default SKU catalogue. Default prices are list prices in the tenant's
 * billing currency (USD unless the tenant changes it); an admin overrides any of them per tenant
 * (BillingPrice rows, effective-dated, the history kept). `reference` SKUs are not charged: they are
 * what the same GPU-hours would cost on a cloud GPU of that model (GET /billing/local-gpu).
 */

export type BuiltinMeter =
  'events_ingested' | 'deliveries' | 'events_stored' | 'aiperf_runs' | 'assistant_tokens' | 'gpu_hours' | 'gpu_energy';

export const BUILTIN_METERS: Record<BuiltinMeter, { unit: string; description: string }> = {
  events_ingested: {
    unit: 'event',
    description:
      'Events received through POST /events and inbound webhooks (not the service’s own), by source and module',
  },
  deliveries: {
    unit: 'delivery',
    description: 'Outbound webhook deliveries created, by topic (retries of one delivery count once)',
  },
  events_stored: {
    unit: 'GB-month',
    description: 'Stored events: bytes on the timeline at 00:00 UTC each day (10^9 bytes = 1 GB) × 24 h ÷ 730 h',
  },
  aiperf_runs: { unit: 'run', description: 'Load-test runs started, by model' },
  assistant_tokens: {
    unit: 'token',
    description: 'Assistant model tokens (prompt + completion), by purpose and provider/model',
  },
  gpu_hours: {
    unit: 'GPU-hour',
    description: 'Local GPU-hours: minutes with at least one telemetry sample ÷ 60, by node and GPU model',
  },
  gpu_energy: {
    unit: 'kWh',
    description: 'Local GPU energy: each sampled minute at its average power draw, by node and GPU model',
  },
};

export type SkuKind = 'metered' | 'reference';

export interface SkuDefinition {
  id: string;
  name: string;
  meter: string;
  unit: string;
  /** Default unit price (decimal string). */
  unitPrice: string;
  kind: SkuKind;
  serviceName: string;
  serviceCategory: string;
  /** Reference cloud GPU SKUs: the GPU model token matched in the telemetry's model name (`A100`). */
  gpuModel?: string;
  /** Local GPU SKUs are priced by the tenant's billing settings (energy price, amortisation). */
  local?: boolean;
}

export const LOCAL_ENERGY_SKU = 'local.gpu.energy';
export const LOCAL_AMORTIZATION_SKU = 'local.gpu.amortization';

export const DEFAULT_SKUS: SkuDefinition[] = [
  {
    id: 'ops.events.ingested',
    name: 'Events ingested',
    meter: 'events_ingested',
    unit: 'event',
    unitPrice: '0.00001',
    kind: 'metered',
    serviceName: 'Event timeline',
    serviceCategory: 'Management and Governance',
  },
  {
    id: 'ops.deliveries.outbound',
    name: 'Outbound webhook deliveries',
    meter: 'deliveries',
    unit: 'delivery',
    unitPrice: '0.0001',
    kind: 'metered',
    serviceName: 'Outbound webhooks',
    serviceCategory: 'Integration',
  },
  {
    id: 'ops.storage.events',
    name: 'Stored events',
    meter: 'events_stored',
    unit: 'GB-month',
    unitPrice: '0.10',
    kind: 'metered',
    serviceName: 'Event timeline',
    serviceCategory: 'Storage',
  },
  {
    id: 'ops.loadtest.runs',
    name: 'Load-test runs',
    meter: 'aiperf_runs',
    unit: 'run',
    unitPrice: '0.50',
    kind: 'metered',
    serviceName: 'AI factory load tests',
    serviceCategory: 'AI and Machine Learning',
  },
  {
    id: 'ops.assistant.tokens',
    name: 'Assistant tokens',
    meter: 'assistant_tokens',
    unit: 'token',
    unitPrice: '0.000002',
    kind: 'metered',
    serviceName: 'Assistant',
    serviceCategory: 'AI and Machine Learning',
  },
  {
    id: LOCAL_AMORTIZATION_SKU,
    name: 'Local GPU hardware amortisation',
    meter: 'gpu_hours',
    unit: 'GPU-hour',
    unitPrice: '0',
    kind: 'metered',
    serviceName: 'Local GPU',
    serviceCategory: 'Compute',
    local: true,
  },
  {
    id: LOCAL_ENERGY_SKU,
    name: 'Local GPU energy',
    meter: 'gpu_energy',
    unit: 'kWh',
    unitPrice: '0',
    kind: 'metered',
    serviceName: 'Local GPU',
    serviceCategory: 'Compute',
    local: true,
  },
  {
    id: 'cloud.gpu.h100',
    name: 'Cloud GPU H100 (on demand, per GPU)',
    meter: 'gpu_hours',
    unit: 'GPU-hour',
    unitPrice: '4.00',
    kind: 'reference',
    serviceName: 'Cloud GPU',
    serviceCategory: 'Compute',
    gpuModel: 'H100',
  },
  {
    id: 'cloud.gpu.a100',
    name: 'Cloud GPU A100 (on demand, per GPU)',
    meter: 'gpu_hours',
    unit: 'GPU-hour',
    unitPrice: '3.00',
    kind: 'reference',
    serviceName: 'Cloud GPU',
    serviceCategory: 'Compute',
    gpuModel: 'A100',
  },
  {
    id: 'cloud.gpu.l40s',
    name: 'Cloud GPU L40S (on demand, per GPU)',
    meter: 'gpu_hours',
    unit: 'GPU-hour',
    unitPrice: '1.80',
    kind: 'reference',
    serviceName: 'Cloud GPU',
    serviceCategory: 'Compute',
    gpuModel: 'L40S',
  },
  {
    id: 'cloud.gpu.l4',
    name: 'Cloud GPU L4 (on demand, per GPU)',
    meter: 'gpu_hours',
    unit: 'GPU-hour',
    unitPrice: '0.80',
    kind: 'reference',
    serviceName: 'Cloud GPU',
    serviceCategory: 'Compute',
    gpuModel: 'L4',
  },
  {
    id: 'cloud.gpu.t4',
    name: 'Cloud GPU T4 (on demand, per GPU)',
    meter: 'gpu_hours',
    unit: 'GPU-hour',
    unitPrice: '0.35',
    kind: 'reference',
    serviceName: 'Cloud GPU',
    serviceCategory: 'Compute',
    gpuModel: 'T4',
  },
];

/** The SKU id of a custom meter. */
export const customSkuId = (slug: string) => `custom.${slug}`;
/** The meter id of a custom meter in usage rows. */
export const customMeterId = (slug: string) => `custom.${slug}`;

/** Whether a GPU model name from telemetry (`NVIDIA A100-SXM4-80GB`) is of the SKU's model token (`A100`), as a whole word. */
export function gpuModelMatches(modelName: string, token: string): boolean {
  const esc = token.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9])${esc}([^A-Za-z0-9]|$)`, 'i').test(modelName);
}
