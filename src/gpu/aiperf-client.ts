/**
 * One request to an OpenAI-compatible chat-completions endpoint, measured the way AIPerf measures it:
 * time to first token (request sent → first chunk carrying content), inter-token latency (gaps between
 * consecutive content chunks), request latency (sent → `[DONE]` or end of body) and output tokens
 * (the server's `usage.completion_tokens` when it reports it, else one per content chunk).
 * Uses Node's fetch (undici) with an AbortSignal that combines the run's cancel signal and a
 * per-request deadline, so no request is unbounded. Never throws: failures are returned as `error`.
 */
import type { GuardedDispatcher } from '../net/dispatcher.js';

export interface ChatRequest {
  /** The endpoint's base URL; `/v1/chat/completions` is appended (unless the URL already ends with it). */
  endpointUrl: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  streaming: boolean;
  timeoutMs: number;
  /** Aborts the request when the run is cancelled or past its deadline. */
  signal?: AbortSignal;
  /** An undici dispatcher for the connection (guardedDispatcher: the SSRF check in the socket's DNS lookup). */
  dispatcher?: GuardedDispatcher;
}

export interface RequestMeasure {
  ok: boolean;
  error: string | null;
  ttftMs: number | null;
  itlMs: number[];
  latencyMs: number;
  outputTokens: number;
  startedAt: number;
}

/** `…/v1/chat/completions` under the endpoint's base URL. */
export function chatCompletionsUrl(endpointUrl: string): string {
  const base = endpointUrl.replace(/\/+$/, '');
  if (base.endsWith('/v1/chat/completions')) return base;
  return base.endsWith('/v1') ? `${base}/chat/completions` : `${base}/v1/chat/completions`;
}

/** A prompt of about `tokens` tokens (one short word is about one token for common tokenizers). */
export function syntheticPrompt(tokens: number, seed = 0): string {
  const words = [
    'alpha',
    'bravo',
    'charlie',
    'delta',
    'echo',
    'foxtrot',
    'golf',
    'hotel',
    'india',
    'juliet',
    'kilo',
    'lima',
  ];
  const out: string[] = [];
  for (let i = 0; i < tokens; i++) out.push(words[(i + seed) % words.length]!);
  return out.join(' ');
}

function requestBody(r: ChatRequest, seed: number): string {
  return JSON.stringify({
    model: r.model,
    messages: [{ role: 'user', content: syntheticPrompt(r.inputTokens, seed) }],
    max_tokens: r.outputTokens,
    stream: r.streaming,
    ...(r.streaming ? { stream_options: { include_usage: true } } : {}),
  });
}

function describe(err: unknown, signal: AbortSignal): string {
  if (signal.aborted) {
    const reason = signal.reason as { name?: string; message?: string } | undefined;
    return reason?.name === 'TimeoutError' ? 'request timed out' : `aborted: ${reason?.message ?? 'cancelled'}`;
  }
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  // A refusal by the guarded lookup says why (its message names the address).
  if (e.cause?.code === 'EDISALLOWEDADDRESS') return String(e.cause.message).slice(0, 300);
  return [e.message ?? String(err), e.cause?.code ?? e.cause?.message].filter(Boolean).join(': ').slice(0, 300);
}

/** Sends one chat-completions request and measures it. */
export async function measureChatCompletion(r: ChatRequest, seed = 0): Promise<RequestMeasure> {
  const signal = r.signal
    ? AbortSignal.any([r.signal, AbortSignal.timeout(r.timeoutMs)])
    : AbortSignal.timeout(r.timeoutMs);
  const startedAt = Date.now(); // a measurement of this request (stored nowhere), not business time
  const t0 = performance.now();
  const result: RequestMeasure = {
    ok: false,
    error: null,
    ttftMs: null,
    itlMs: [],
    latencyMs: 0,
    outputTokens: 0,
    startedAt,
  };
  const finish = (error: string | null): RequestMeasure => {
    result.latencyMs = performance.now() - t0;
    result.error = error;
    result.ok = error === null;
    return result;
  };
  try {
    const res = await fetch(chatCompletionsUrl(r.endpointUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: r.streaming ? 'text/event-stream' : 'application/json' },
      body: requestBody(r, seed),
      redirect: 'manual',
      signal,
      ...(r.dispatcher ? { dispatcher: r.dispatcher } : {}),
    } as RequestInit);
    if (!res.ok) {
      const text = (await res.text().catch(() => '')).slice(0, 200);
      return finish(`HTTP ${res.status}${text ? `: ${text}` : ''}`);
    }
    if (!r.streaming) {
      const json = (await res.json()) as {
        usage?: { completion_tokens?: number };
        choices?: Array<{ message?: { content?: string } }>;
      };
      result.outputTokens = json.usage?.completion_tokens ?? (json.choices?.[0]?.message?.content ? 1 : 0);
      // Without streaming the first token arrives with the whole answer.
      const whole = finish(null);
      whole.ttftMs = whole.latencyMs;
      return whole;
    }
    if (!res.body) return finish('response has no body');
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let lastChunkAt: number | null = null;
    let chunks = 0;
    let usageTokens: number | null = null;
    let done = false;
    while (!done) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      const now = performance.now();
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') {
          done = true;
          break;
        }
        let chunk: {
          choices?: Array<{ delta?: { content?: string | null } }>;
          usage?: { completion_tokens?: number } | null;
          error?: { message?: string };
        };
        try {
          chunk = JSON.parse(data);
        } catch {
          continue;
        }
        if (chunk.error) {
          await reader.cancel().catch(() => undefined);
          return finish(`stream error: ${String(chunk.error.message ?? 'unknown').slice(0, 200)}`);
        }
        if (chunk.usage?.completion_tokens != null) usageTokens = chunk.usage.completion_tokens;
        const content = chunk.choices?.[0]?.delta?.content;
        if (!content) continue;
        chunks++;
        if (result.ttftMs === null) result.ttftMs = now - t0;
        else if (lastChunkAt !== null) result.itlMs.push(now - lastChunkAt);
        lastChunkAt = now;
      }
    }
    if (done) await reader.cancel().catch(() => undefined);
    result.outputTokens = usageTokens ?? chunks;
    if (result.ttftMs === null) return finish('the stream ended without any content');
    return finish(null);
  } catch (err) {
    return finish(describe(err, signal));
  }
}
