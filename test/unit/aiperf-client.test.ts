/**
 * One measured chat-completions request against the real streaming test server on 127.0.0.1 (it
 * stands in for a model server): the SSRF guard in the connection's DNS lookup, non-streaming
 * responses, HTTP errors, the per-request deadline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureChatCompletion, type ChatRequest } from '../../src/gpu/aiperf-client.js';
import { guardedDispatcher } from '../../src/net/dispatcher.js';
import { compileUrlPolicy, guardedLookup } from '../../src/net/url-guard.js';
import { startOpenAiStreamServer, type StreamServer } from '../helpers/openai-stream-server.js';

let srv: StreamServer;
let port: string;

const req = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  endpointUrl: srv.url,
  model: 'm',
  inputTokens: 4,
  outputTokens: 5,
  streaming: true,
  timeoutMs: 30_000,
  ...over,
});

beforeAll(async () => {
  srv = await startOpenAiStreamServer({ tokens: 5, firstTokenDelayMs: 100, interTokenDelayMs: 10 });
  port = new URL(srv.url).port;
});

afterAll(async () => {
  await srv.close();
});

describe('measureChatCompletion', () => {
  it('refuses, at connect time, a name that resolves to a loopback address the policy does not allow', async () => {
    const dispatcher = await guardedDispatcher(guardedLookup(compileUrlPolicy([])));
    expect(dispatcher).not.toBeNull();
    const before = srv.received;
    const m = await measureChatCompletion(req({ endpointUrl: `http://localhost:${port}`, dispatcher: dispatcher! }));
    await dispatcher!.close();
    expect(m.ok).toBe(false);
    expect(m.error).toMatch(/private\/loopback\/link-local/);
    expect(srv.received).toBe(before);
  });

  it('connects through the guarded dispatcher when the policy allows the address, and measures the stream', async () => {
    const dispatcher = await guardedDispatcher(guardedLookup(compileUrlPolicy(['127.0.0.1', '::1'])));
    const m = await measureChatCompletion(req({ endpointUrl: `http://localhost:${port}`, dispatcher: dispatcher! }));
    await dispatcher!.close();
    expect(m.error).toBeNull();
    expect(m.outputTokens).toBe(5);
    expect(m.itlMs).toHaveLength(4);
    expect(m.ttftMs!).toBeGreaterThanOrEqual(90);
  });

  it('measures a non-streaming response as one latency with the usage token count', async () => {
    const m = await measureChatCompletion(req({ streaming: false }));
    expect(m).toMatchObject({ ok: true, outputTokens: 5, itlMs: [] });
    expect(m.ttftMs).toBe(m.latencyMs);
    expect(srv.bodies.at(-1)).toMatchObject({ stream: false });
  });

  it('reports an HTTP error status and a request past its deadline as errors', async () => {
    const notFound = await measureChatCompletion(req({ endpointUrl: `${srv.url}/elsewhere/v1/chat/completions` }));
    expect(notFound).toMatchObject({ ok: false });
    expect(notFound.error).toMatch(/^HTTP 404/);
    const late = await measureChatCompletion(req({ timeoutMs: 20 }));
    expect(late).toMatchObject({ ok: false, error: 'request timed out' });
  });
});
