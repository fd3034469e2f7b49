/**
 * The GPU parsers on the fixtures of real-format dcgm-exporter and nvidia-smi output
 * (test/fixtures/gpu/README.md), and the collector's batching and the dcgm config rules.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDcgmText } from '../../src/gpu/dcgm.js';
import { parseNvidiaSmiCsv } from '../../src/gpu/nvidia-smi.js';
import { COLLECTOR_LIMITS, pushBodies, retryAfterMs, samplesUrl } from '../../src/gpu/collector.js';
import { targetHost } from '../../src/gpu/scrape.js';
import { parseGpuPush } from '../../src/gpu/push.js';
import { validateConfig } from '../../src/integrations/config.js';
import { dcgmProvider } from '../../src/integrations/providers/dcgm.js';
import type { GpuSampleInput } from '../../src/gpu/samples.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/gpu');
const read = (f: string) => fs.readFileSync(path.join(FIXTURES, f), 'utf8');
const AT = new Date('2026-11-23T12:00:00Z');

describe('dcgm-exporter text (fixture)', () => {
  const samples = parseDcgmText(read('dcgm-exporter.txt'), AT, 'fallback-host');

  it('gives one sample per GPU with the exporter labels and our units', () => {
    expect(samples).toHaveLength(2);
    const [g0, g1] = samples;
    expect(g0).toMatchObject({
      uuid: 'GPU-5d3e6c1a-8f2b-4c7d-9e0a-1b2c3d4e5f60',
      node: 'dgx-a100-01',
      index: 0,
      model: 'NVIDIA A100-SXM4-80GB',
      at: AT,
      utilization: 87,
      memUsedMib: 40321,
      memTotalMib: 40321 + 40542 + 567,
      temperatureC: 62,
      powerW: 312.447,
      xid: 0,
      eccDbe: 0,
      smClockMhz: 1410,
    });
    expect(g0!.energyJ).toBeCloseTo(4528291.344, 3); // mJ → J
    expect(g1).toMatchObject({ index: 1, utilization: 0, temperatureC: 33 });
  });

  it('stores the blank "not supported" sentinel as null, not as a number', () => {
    expect(samples[1]!.eccDbe).toBeNull();
    expect(Object.values(samples[1]!).some((v) => typeof v === 'number' && v > 1e12)).toBe(false);
  });

  it('uses the fallback node when the exporter sends no Hostname label', () => {
    const text = read('dcgm-exporter.txt').replace(/,Hostname="dgx-a100-01"/g, '');
    expect(parseDcgmText(text, AT, targetHost('http://10.0.0.7:9400/metrics')).map((s) => s.node)).toEqual([
      '10.0.0.7',
      '10.0.0.7',
    ]);
    expect(targetHost('http://[::1]:9400/metrics')).toBe('::1');
  });
});

describe('nvidia-smi CSV (fixture)', () => {
  const samples = parseNvidiaSmiCsv(read('nvidia-smi.csv'), 'gpu-host-1', AT);

  it('reads each GPU line in the order of nvidiaSmiArgs()', () => {
    expect(samples).toHaveLength(3);
    expect(samples[0]).toMatchObject({
      uuid: 'GPU-5d3e6c1a-8f2b-4c7d-9e0a-1b2c3d4e5f60',
      node: 'gpu-host-1',
      index: 0,
      model: 'NVIDIA A100-SXM4-80GB',
      utilization: 87,
      memUsedMib: 40321,
      memTotalMib: 81920,
      temperatureC: 62,
      powerW: 312.44,
      powerLimitW: 400,
      smClockMhz: 1410,
      eccDbe: 0,
    });
  });

  it('turns [N/A] into null', () => {
    expect(samples[2]).toMatchObject({ model: 'NVIDIA GeForce RTX 3090', eccDbe: null, utilization: 12 });
  });

  it('makes push bodies the hub accepts', () => {
    const [body] = pushBodies('gpu-host-1', samples);
    const parsed = parseGpuPush(JSON.parse(body!), new Date(AT.getTime() + 1000));
    expect(parsed.map((s) => s.uuid)).toEqual(samples.map((s) => s.uuid));
    expect(parsed[2]!.eccDbe).toBeUndefined(); // missing, not 0
    expect(parsed[0]).toMatchObject({ node: 'gpu-host-1', at: AT, utilization: 87 });
  });
});

describe('collector batching', () => {
  const many = (n: number): GpuSampleInput[] =>
    Array.from({ length: n }, (_, i) => ({
      uuid: `GPU-${String(i).padStart(8, '0')}-aaaa-bbbb-cccc-dddddddddddd`,
      node: 'n',
      index: i % 8,
      model: 'NVIDIA H100 80GB HBM3',
      at: AT,
      utilization: 50,
      memUsedMib: 1,
      memTotalMib: 2,
      temperatureC: 40,
      powerW: 100.5,
      powerLimitW: 700,
      smClockMhz: 1980,
      eccDbe: 0,
    }));

  it('keeps every body within 5,000 samples and 1 MiB, and loses no sample', () => {
    const samples = many(12_345);
    const bodies = pushBodies('n', samples);
    expect(bodies.length).toBeGreaterThan(2);
    let total = 0;
    for (const b of bodies) {
      expect(Buffer.byteLength(b)).toBeLessThanOrEqual(COLLECTOR_LIMITS.maxBodyBytes);
      const n = JSON.parse(b).samples.length;
      expect(n).toBeLessThanOrEqual(5000);
      total += n;
    }
    expect(total).toBe(samples.length);
  });

  it('reads Retry-After as seconds or a date, bounded', () => {
    expect(retryAfterMs('3', 500)).toBe(3000);
    expect(retryAfterMs(null, 700)).toBe(700);
    expect(retryAfterMs('100000', 500)).toBe(300_000);
    expect(retryAfterMs(new Date(Date.now() + 10_000).toUTCString(), 500)).toBeGreaterThan(5000);
    expect(samplesUrl('http://hub:8080/')).toBe('http://hub:8080/api/v1/ai-factory/gpu/samples');
  });
});

describe('dcgm provider config', () => {
  const at = ['input', 'config'];
  it('takes 1 to 50 http(s) targets and an interval of 5 to 3600 s', () => {
    expect(
      validateConfig(
        { targets: ['http://10.0.0.1:9400/metrics'], interval_seconds: 30 },
        dcgmProvider.configSchema,
        at,
      ),
    ).toEqual([]);
    expect(validateConfig({ targets: [] }, dcgmProvider.configSchema, at)).toEqual([
      { loc: [...at, 'targets'], msg: 'must have at least 1 item(s)' },
    ]);
    expect(validateConfig({ targets: Array(51).fill('http://h/metrics') }, dcgmProvider.configSchema, at)).toEqual([
      { loc: [...at, 'targets'], msg: 'must have at most 50 items' },
    ]);
    expect(
      validateConfig({ targets: ['http://ok/metrics', 'ftp://x/metrics', 7] }, dcgmProvider.configSchema, at),
    ).toEqual([
      { loc: [...at, 'targets', '1'], msg: 'must be an absolute http or https URL' },
      { loc: [...at, 'targets', '2'], msg: 'must be a string' },
    ]);
    expect(validateConfig({ targets: 'http://h/metrics', interval_seconds: 2 }, dcgmProvider.configSchema, at)).toEqual(
      [
        { loc: [...at, 'targets'], msg: 'must be a list' },
        { loc: [...at, 'interval_seconds'], msg: 'must be between 5 and 3600' },
      ],
    );
    expect(validateConfig({}, dcgmProvider.configSchema, at)).toEqual([
      { loc: [...at, 'targets'], msg: 'is required' },
    ]);
    expect(dcgmProvider.pullEverySeconds!({ targets: [], interval_seconds: 45 })).toBe(45);
  });
});
