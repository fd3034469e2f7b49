/**
 * Shapes shared by the assistant's parts: triage results, proposed actions, tool definitions and the
 * provider interface (builtin: deterministic; openai: any OpenAI-compatible model).
 */
import type { Ctx } from '../context.js';
import type { Alert, AlertRule, Device, DriftReport, Event, IntentVersion } from '../generated/prisma/client.js';
import type { ChangeVocabulary } from './vocabulary.js';

export type CheckStatus = 'success' | 'skipped' | 'error';

/** What an evidence item names; `record` only for triages stored before items had kinds. */
export const EVIDENCE_KINDS = [
  'event',
  'alert',
  'device',
  'proposal',
  'drift_report',
  'intent_version',
  'rule',
  'integration',
  'gpu',
  'record',
] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** A record a check or cause rests on: people open it by kind and id; `label` says what it is. */
export interface EvidenceItem {
  kind: EvidenceKind;
  id: string;
  label: string;
}

/** How a candidate is tied to the alert (docs/triage.md: relation kinds and weights). */
export const RELATION_KINDS = [
  'same_device',
  'shared_label',
  'dedup_label',
  'same_source',
  'site',
  'gpu_node',
  'integration',
  'precursor',
] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

export interface Relation {
  kind: RelationKind;
  /** Spelled out for people and models: "same service=checkout label". */
  detail: string;
  weight: number;
}

/** An event before the alert that could have caused it, with what ties it to the alert. */
export interface RankedCandidate {
  event: Event;
  /** A change by the tenant's vocabulary (else a known precursor fault). */
  isChange: boolean;
  minutesBefore: number;
  relations: Relation[];
  /** 0 (unrelated) to 100; see src/assistant/relatedness.ts. */
  score: number;
  confidence: Confidence | null;
  /** Records to open: the event, and the device, GPU or integration that ties it to the alert. */
  evidence: EvidenceItem[];
}

/** One check of a triage (after Grafana Sift): did it run, did it find something worth a look. */
export interface TriageCheck {
  name: string;
  status: CheckStatus;
  interesting: boolean;
  message: string;
  /** Real records (events, alerts, devices, drift reports, proposals). */
  evidence: EvidenceItem[];
}

export type Confidence = 'high' | 'medium' | 'low';

export interface LikelyCause {
  cause: string;
  confidence: Confidence;
  /** 0–100 relatedness score the confidence follows from (null when a model gave the cause without one). */
  score: number | null;
  /** What earned it: each relation to the alert, spelled out. */
  relations: Array<{ kind: RelationKind; detail: string }>;
  evidence: EvidenceItem[];
}

/** A cause as a provider drafts it: evidence as record ids, resolved to items before it is stored. */
export interface CauseDraft {
  cause: string;
  confidence: Confidence;
  evidence: string[];
  score?: number | null;
  relations?: Array<{ kind: RelationKind; detail: string }>;
}

export const ACTION_TOOLS = [
  'acknowledge_alert',
  'snooze_alert',
  'resolve_alert',
  'reconcile_device',
  'open_proposal',
  'create_maintenance_window',
] as const;
export type ActionTool = (typeof ACTION_TOOLS)[number];
export type Risk = 'low' | 'medium' | 'high';

/** An action a provider wants to propose; validated and stored as `proposed`, never run by the assistant. */
export interface ActionDraft {
  tool: ActionTool;
  args: Record<string, unknown>;
  rationale: string;
  risk: Risk;
  /** The alert it belongs to (defaults to the alert in scope). */
  alertId?: string;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  model: string | null;
}

export const NO_USAGE: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, model: null };

/** The result of one read tool: JSON-able data and the ids of the records it contains. */
export interface ToolOutput {
  data: unknown;
  ids: string[];
}

/** A read operation the assistant may use, run with the asking user's ctx (permissions and tenant). */
export interface ToolDef {
  name: string;
  description: string;
  /** JSON Schema of the arguments (sent to models as the function's parameters). */
  parameters: Record<string, unknown>;
  run(ctx: Ctx, args: Record<string, unknown>): Promise<ToolOutput>;
}

/** Runs tools for one assistant turn, remembering which record ids they showed and what was proposed. */
export interface Toolbox {
  readonly tools: ToolDef[];
  /** Every record id a tool returned during this turn: evidence must come from here. */
  readonly seenIds: Set<string>;
  readonly proposals: ActionDraft[];
  /** Runs a tool by name; a domain error (not found, bad input) becomes `{error}` for the model. */
  call(name: string, args: unknown): Promise<{ ok: boolean; data: unknown }>;
}

/** A past alert like the one triaged, and how it ended. */
export interface SimilarAlert {
  alert: Alert;
  resolvedBy: string | null;
  resolveNote: string | null;
  minutesToResolve: number | null;
}

/** What the triage checks read about an alert (src/assistant/checks.ts gathers it). */
export interface TriageFacts {
  alert: Alert;
  rule: Pick<AlertRule, 'id' | 'name' | 'typeGlob' | 'dedupKeyTemplate'> | null;
  vocabulary: ChangeVocabulary;
  /** Minutes before the alert that candidates are read from. */
  windowMinutes: number;
  /** Changes and precursor faults related to the alert, strongest first. */
  related: RankedCandidate[];
  /** Changes in the window that share nothing with the alert, newest first. */
  unrelatedChanges: RankedCandidate[];
  device: Device | null;
  latestDrift: DriftReport | null;
  /** The device's latest intent version and the one before it (for a rollback proposal). */
  intents: IntentVersion[];
  similar: SimilarAlert[];
  /** Earlier alerts with the same dedup key in the 24 h before this one (recurrences). */
  recurrences: Alert[];
  reopenCount: number;
}

export interface TriageRequest {
  ctx: Ctx;
  alert: Alert;
  facts: TriageFacts;
  checks: TriageCheck[];
  toolbox: Toolbox;
}

export interface TriageDraft {
  summary: string;
  likelyCauses: Array<CauseDraft | LikelyCause>;
  actions: ActionDraft[];
  usage: TokenUsage;
}

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  ctx: Ctx;
  /** The alert whose conversation this is, or null for copilot. */
  alert: Alert | null;
  history: ChatTurn[];
  message: string;
  toolbox: Toolbox;
  /** Called with each piece of the reply as it is produced (streaming). */
  onDelta?: (text: string) => void;
}

export interface ChatDraft {
  reply: string;
  citations: string[];
  actions: ActionDraft[];
  usage: TokenUsage;
}

/** A plain completion for other areas (reports' translate): null when the provider has no model. */
export interface CompletionRequest {
  system: string;
  user: string;
  /** Ask for a JSON object answer. */
  json?: boolean;
}

export interface Completion {
  text: string;
  usage: TokenUsage;
}

export interface AssistantProvider {
  readonly name: 'builtin' | 'openai';
  /** False for builtin: callers with their own deterministic fallback (translate) use it. */
  readonly usesModel: boolean;
  triage(req: TriageRequest): Promise<TriageDraft>;
  chat(req: ChatRequest): Promise<ChatDraft>;
  complete(req: CompletionRequest): Promise<Completion | null>;
}
