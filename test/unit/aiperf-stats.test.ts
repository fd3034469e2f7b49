/**
 * Pure parts of the load-test runs: percentiles, the open-loop arrival schedule, the endpoint path,
 * input validation with REST field locations, and the aggregation of measured requests.
 */
import { describe, expect, it } from 'vitest';
import { arrivalOffsetsMs, quantileSorted, summarize } from '../../src/gpu/percentiles.js';
import { chatCompletionsUrl, syntheticPrompt, type RequestMeasure } from '../../src/gpu/aiperf-client.js';
import { validateAiperfInput, type AiperfRunInput } from '../../src/gpu/aiperf.js';
import { aggregateResults } from '../../src/gpu/aiperf-results.js';
import { ValidationFailed } from '../../src/errors.js';

const base: AiperfRunInput = {
  endpointUrl: 'http://127.0.0.1:8000',
  model: 'm',
  mode: 'concurrency',
  requestCount: 10,
};

function problems(input: AiperfRunInput): string[] {
  try {
    validateAiperfInput(input);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationFailed);
    return (err as ValidationFailed).extra.fields!.map((f) => f.loc.join('.'));
  }
}

function measure(over: Partial<RequestMeasure>): RequestMeasure {
  return {
    ok: true,
    error: null,
    ttftMs: 100,
    itlMs: [10, 10],
    latencyMs: 120,
    outputTokens: 3,
    startedAt: 0,
    ...over,
  };
}

describe('percentiles', () => {
  it('interpolates between closest ranks like numpy', () => {
    const v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(quantileSorted(v, 0.5)).toBe(5.5);
    expect(quantileSorted(v, 0.9)).toBeCloseTo(9.1, 10);
    expect(quantileSorted(v, 0.99)).toBeCloseTo(9.91, 10);
    expect(quantileSorted(v, 0)).toBe(1);
    expect(quantileSorted(v, 1)).toBe(10);
    expect(quantileSorted([], 0.5)).toBeNull();
    expect(() => quantileSorted(v, 1.5)).toThrow(RangeError);
  });

  it('summarizes unsorted values and ignores non-finite ones; nothing measured is all null', () => {
    expect(summarize([30, 10, 20, Number.NaN])).toEqual({ p50: 20, p90: 28, p99: 29.8, avg: 20 });
    expect(summarize([])).toEqual({ p50: null, p90: null, p99: null, avg: null });
    expect(summarize([7])).toEqual({ p50: 7, p90: 7, p99: 7, avg: 7 });
  });
});

describe('open-loop arrival schedule', () => {
  it('spaces requests 1/rate apart, stopping at the count or the duration', () => {
    expect(arrivalOffsetsMs(4, { count: 5 })).toEqual([0, 250, 500, 750, 1000]);
    expect(arrivalOffsetsMs(10, { durationMs: 350 })).toEqual([0, 100, 200, 300]);
    expect(arrivalOffsetsMs(2, { count: 100, durationMs: 1500 })).toEqual([0, 500, 1000]);
    expect(() => arrivalOffsetsMs(0, { count: 1 })).toThrow(RangeError);
    expect(() => arrivalOffsetsMs(1, {})).toThrow(RangeError);
  });
});

describe('the endpoint', () => {
  it('appends /v1/chat/completions to the base URL once', () => {
    expect(chatCompletionsUrl('http://h:8000')).toBe('http://h:8000/v1/chat/completions');
    expect(chatCompletionsUrl('http://h:8000/')).toBe('http://h:8000/v1/chat/completions');
    expect(chatCompletionsUrl('http://h:8000/v1')).toBe('http://h:8000/v1/chat/completions');
    expect(chatCompletionsUrl('http://h/v1/chat/completions')).toBe('http://h/v1/chat/completions');
  });

  it('builds a prompt of the requested number of words', () => {
    expect(syntheticPrompt(7).split(' ')).toHaveLength(7);
  });
});

describe('run validation', () => {
  it('accepts a minimal concurrency run with defaults', () => {
    expect(validateAiperfInput(base)).toMatchObject({
      concurrency: 1,
      inputTokens: 128,
      outputTokens: 64,
      streaming: true,
      requestRate: null,
      durationS: null,
    });
  });

  it('names REST fields for every problem', () => {
    expect(problems({ ...base, requestCount: null })).toEqual(['input.requestCount']);
    expect(problems({ ...base, durationS: 5 })).toEqual(['input.durationS']);
    expect(problems({ ...base, mode: 'request_rate' })).toEqual(['input.requestRate']);
    expect(problems({ ...base, requestRate: 5 })).toEqual(['input.requestRate']);
    expect(problems({ ...base, concurrency: 0, inputTokens: 0, outputTokens: 40_000, model: '' })).toEqual([
      'input.model',
      'input.concurrency',
      'input.inputTokens',
      'input.outputTokens',
    ]);
    expect(problems({ ...base, mode: 'request_rate', requestRate: 1000, requestCount: null, durationS: 3600 })).toEqual(
      ['input.durationS'],
    );
    expect(problems({ ...base, mode: 'burst' as never })).toEqual(['input.mode']);
  });
});

describe('aggregation', () => {
  it('counts errors apart and computes rates over the wall time', () => {
    const r = aggregateResults(
      [
        measure({}),
        measure({ ttftMs: 200, itlMs: [30], outputTokens: 2 }),
        measure({ ok: false, error: 'HTTP 500', ttftMs: null, itlMs: [], outputTokens: 0 }),
      ],
      2000,
    );
    expect(r).toMatchObject({
      requests: 3,
      errors: 1,
      output_tokens: 5,
      output_tokens_per_s: 2.5,
      requests_per_s: 1,
      duration_s: 2,
      error_samples: ['HTTP 500'],
    });
    expect(r.ttft_ms).toMatchObject({ p50: 150, avg: 150 });
    expect(r.itl_ms).toMatchObject({ p50: 10, avg: 16.667 });
  });

  it('no successful request leaves latencies null and rates null', () => {
    const r = aggregateResults([measure({ ok: false, error: 'ECONNREFUSED', ttftMs: null })], 10);
    expect(r).toMatchObject({ requests: 1, errors: 1, output_tokens_per_s: null, requests_per_s: null });
    expect(r.ttft_ms.p50).toBeNull();
  });
});
