/**
 * What a provider is: a module declaring its id, name, a JSON Schema of its config (secret fields
 * marked `x-secret: true`), what it can do (receive pushes, pull on demand, check health) and the
 * functions that do it. Providers turn what their system sends or answers into `Signal`s; the
 * recorder (record.ts) turns signals into timeline events and alert changes, the same for every
 * provider. A new provider (e.g. `dcgm`) is one module plus its line in providers/index.ts.
 */
import type { Runtime } from '../runtime.js';
import type { UrlPolicy } from '../net/url-guard.js';
import type { EventSeverity } from '../events/envelope.js';
import type { FieldProblem } from '../errors.js';

/** One config field: the JSON Schema subset providers use (validated by config-schema.ts). */
export interface ConfigFieldSchema {
  type: 'string' | 'integer' | 'boolean' | 'object' | 'array';
  description?: string;
  /** `uri`: an http(s) URL that pulls and probes call, so it passes the SSRF guard. */
  format?: 'uri';
  enum?: readonly string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  /** `object` fields: values must be strings (e.g. field paths). */
  additionalProperties?: { type: 'string'; maxLength?: number };
  /** `array` fields: a list of strings (`format: 'uri'` items pass the SSRF guard like a `uri` field). */
  items?: { type: 'string'; format?: 'uri'; maxLength?: number };
  minItems?: number;
  maxItems?: number;
  /** Stored sealed, shown masked, never logged. */
  'x-secret'?: boolean;
  /** Sent as it is in an HTTP header (a bearer token): visible ASCII only, checked when saved (config.ts). */
  'x-header'?: boolean;
}

export interface ConfigSchema {
  type: 'object';
  properties: Record<string, ConfigFieldSchema>;
  required?: readonly string[];
  additionalProperties: false;
}

export interface ProviderCapabilities {
  /** Has its own push URL and bearer credential. */
  push: boolean;
  /** Can be pulled on demand (POST /integrations/<provider>/ingest). */
  pull: boolean;
  /** Has a reachability probe. */
  health: boolean;
}

/** An observation from a monitoring system, ready to record. */
export interface Signal {
  /** Timeline event type, `<system>.<verb>`. */
  type: string;
  summary: string;
  severity: EventSeverity;
  labels: Record<string, string>;
  payload: Record<string, unknown>;
  /**
   * When the signal is about an alert of the remote system: its stable key (Alertmanager's
   * fingerprint, PagerDuty's dedup_key) and what happened to it.
   */
  alert?: { key: string; state: 'firing' | 'acknowledged' | 'resolved' };
  /** Notes for the alert it opens; default: read from the payload (src/alerts/labels.ts alertAnnotationsOf). */
  annotations?: Record<string, string>;
}

/** What a provider function gets: the effective config (secrets opened) and the outbound guard. */
export interface ProviderContext {
  rt: Runtime;
  /** The integration being pulled (absent for probes and dry runs, which record nothing). */
  integration?: { id: string; tenantId: string; provider: string; name: string };
  config: Record<string, unknown>;
  policy: UrlPolicy;
  timeoutMs: number;
}

export interface PullResult {
  signals: Signal[];
  /**
   * The remote answered with its complete set of active alerts: live alerts of this integration whose
   * key is not among the signals are resolved.
   */
  complete: boolean;
  /** Extra figures for the caller (e.g. targets up/down). */
  summary?: Record<string, number>;
  /** Part of the pull failed (e.g. one of several targets): what was pulled is kept, this is noted as an error. */
  error?: string;
}

export interface ProbeResult {
  ok: boolean;
  latencyMs: number | null;
  message: string;
}

/** A push protocol of the provider's own (PagerDuty Events v2): where its credential is and how it answers. */
export interface PushProtocol {
  /** Body field carrying the push token when no `Authorization: Bearer` header does (e.g. `routing_key`). */
  credentialField: string;
  /** The answer to a recorded push. */
  accepted(signals: Signal[]): { status: number; body: Record<string, unknown> };
  /** The answer to a body the provider cannot map (instead of our 422). */
  rejected(problems: FieldProblem[]): { status: number; body: Record<string, unknown> };
}

export interface Provider {
  id: string;
  name: string;
  description: string;
  configSchema: ConfigSchema;
  capabilities: ProviderCapabilities;
  /** Maps a pushed JSON body onto signals; throws ValidationFailed (loc under `body`) when it cannot. */
  parsePush?(body: unknown, config: Record<string, unknown>): Signal[];
  pushProtocol?: PushProtocol;
  pull?(pc: ProviderContext): Promise<PullResult>;
  /**
   * Seconds between scheduled pulls for this config, or null for on-demand only. Providers that have it
   * are pulled by the `integration-pull` maintenance task (workers/integrations.ts).
   */
  pullEverySeconds?(config: Record<string, unknown>): number | null;
  probe?(pc: ProviderContext): Promise<ProbeResult>;
}
