/**
 * The labelled triage evaluation: every incident of test/helpers/triage-incidents.ts (at least 30,
 * covering each relation kind, each with unrelated changes closer to the alert than its cause) runs
 * through the HTTP API, once with the builtin provider and once with ASSISTANT_PROVIDER=openai against
 * the scripted OpenAI-compatible server (test/helpers/openai-server.ts, standing in for a language
 * model, which cannot run here). Top-1 must name the cause's event; a no-cause incident must get no
 * `high` claim and say that no related change was found. The accuracy is printed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startScriptedModel, type ScriptedModel } from './helpers/openai-server.js';
import { INCIDENTS } from './helpers/triage-incidents.js';
import { report, runIncident, type Outcome } from './helpers/triage-eval.js';

async function runAll(s: TestServer, before?: () => void): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const inc of INCIDENTS) {
    before?.();
    out.push(await runIncident(s, inc));
  }
  return out;
}

function judge(label: string, outcomes: Outcome[]): void {
  const accuracy = report(label, outcomes);
  for (const o of outcomes) expect(o.correct, `${o.incident.name}: ${o.reason}`).toBe(true);
  expect(accuracy).toBe(1);
}

it('has at least 30 incidents covering every relation kind and a no-cause case, each with a distractor closer in time', () => {
  expect(INCIDENTS.length).toBeGreaterThanOrEqual(30);
  const kinds = new Set(INCIDENTS.map((i) => i.relation));
  for (const k of [
    'same_device',
    'shared_label',
    'dedup_label',
    'same_source',
    'site',
    'gpu_node',
    'integration',
    'precursor',
    'none',
  ])
    expect(kinds, k).toContain(k);
  for (const i of INCIDENTS) {
    expect(i.distractors.length, i.name).toBeGreaterThan(0);
    if (i.cause) expect(Math.min(...i.distractors.map((d) => d.minutes)), i.name).toBeLessThan(i.cause.minutes);
  }
});

describe('builtin provider', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { INGEST_RATE_PER_SECOND: '1000' } });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('names the related cause first in every incident and claims nothing high without one', async () => {
    const outcomes = await runAll(s);
    judge('triage evaluation (builtin)', outcomes);
    // Each cause states the relation that earned it, and an unrelated change is never a cause.
    for (const o of outcomes.filter((x) => x.incident.cause)) {
      expect(o.top.relations.length, o.incident.name).toBeGreaterThan(0);
      expect(o.top.cause, o.incident.name).toMatch(/same |site|GPU|integration|precursor/);
    }
    for (const o of outcomes.filter((x) => !x.incident.cause))
      expect(
        o.triage.likely_causes.filter((c: any) => c.evidence.some((e: any) => e.kind === 'event')),
        o.incident.name,
      ).toEqual([]);
  }, 600_000);
});

describe('openai provider against the scripted server', () => {
  let s: TestServer;
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel();
    s = await startTestServer({
      env: {
        INGEST_RATE_PER_SECOND: '1000',
        ASSISTANT_PROVIDER: 'openai',
        ASSISTANT_BASE_URL: model.baseUrl,
        ASSISTANT_MODEL: 'scripted-model',
        ASSISTANT_TIMEOUT_MS: '10000',
        ASSISTANT_URL_ALLOWLIST: '127.0.0.1',
      },
    });
  });
  afterAll(async () => {
    await s?.stop();
    await model?.close();
  });

  /**
   * The scripted model reads the facts it was sent: it names the strongest related candidate, and
   * when there is none it does what confident noise does (names the newest unrelated change, "high").
   */
  function answer(body: any) {
    const user = body.messages.find((m: any) => m.role === 'user').content as string;
    const facts = JSON.parse(/as untrusted data: (\{.*\})$/s.exec(user)![1]!).untrusted_data;
    const top = facts.related_candidates[0];
    const noisy = facts.unrelated_changes[0];
    const causes = top
      ? [{ cause: top.stated_as, confidence: 'high', evidence: [top.id] }]
      : noisy
        ? [{ cause: `${noisy.type} right before the alert`, confidence: 'high', evidence: [noisy.id] }]
        : [];
    return {
      content: JSON.stringify({ summary: top ? `Most likely ${top.type}.` : 'Unclear.', likely_causes: causes }),
    };
  }

  it('gets the ranked facts with relations spelled out, and its answers pass the same evaluation', async () => {
    const outcomes = await runAll(s, () => model.script([answer]));
    judge('triage evaluation (openai, scripted model)', outcomes);
    const first = model.requests.find((r) => r.body.messages?.[1]?.content?.startsWith('Triage alert'))!;
    expect(first.body.messages[1].content).toMatch(/Rank causes by how they are related to the alert/);
    expect(first.body.messages[1].content).toMatch(/"relations":\[\{"kind":"/);
  }, 600_000);
});
