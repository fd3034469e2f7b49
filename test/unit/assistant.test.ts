import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { argsHash, canonicalJson, parseActionDraft } from '../../src/assistant/action-args.js';
import { parseTriageAnswer } from '../../src/assistant/providers/openai.js';
import { ValidationFailed } from '../../src/errors.js';

describe('ASSISTANT_* configuration', () => {
  it('defaults to the offline builtin provider', () => {
    const c = loadConfig({}).assistant;
    expect(c).toMatchObject({ provider: 'builtin', timeoutMs: 60_000, maxToolRounds: 6, actionTtlSeconds: 3600 });
    expect(c.baseUrl).toBeUndefined();
  });

  it.each([
    [{ ASSISTANT_PROVIDER: 'claude' }, /^ASSISTANT_PROVIDER must be builtin or openai/],
    [{ ASSISTANT_PROVIDER: 'openai', ASSISTANT_MODEL: 'm' }, /needs ASSISTANT_BASE_URL/],
    [{ ASSISTANT_PROVIDER: 'openai', ASSISTANT_BASE_URL: 'http://127.0.0.1:1/v1' }, /needs ASSISTANT_MODEL/],
    [{ ASSISTANT_BASE_URL: 'ftp://x/v1' }, /^ASSISTANT_BASE_URL must use http: or https:/],
    [{ ASSISTANT_TIMEOUT_MS: '10' }, /^ASSISTANT_TIMEOUT_MS must be an integer >= 100/],
    [{ ASSISTANT_ACTION_TTL_SECONDS: '0' }, /^ASSISTANT_ACTION_TTL_SECONDS must be an integer >= 1/],
  ])('rejects %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('keeps the API key readable but out of serialized configuration', () => {
    const c = loadConfig({
      ASSISTANT_PROVIDER: 'OpenAI',
      ASSISTANT_BASE_URL: 'http://127.0.0.1:8000/v1',
      ASSISTANT_MODEL: 'llama',
      ASSISTANT_API_KEY: 'sk-very-secret',
    });
    expect(c.assistant).toMatchObject({ provider: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', model: 'llama' });
    expect(c.assistant.apiKey).toBe('sk-very-secret');
    expect(JSON.stringify(c)).not.toContain('sk-very-secret');
    expect(Object.keys(c.assistant)).not.toContain('apiKey');
  });
});

describe('proposed action args', () => {
  const alertId = '01900000-0000-7000-8000-0000000000aa';

  it('hashes the same args the same whatever the key order, and different args differently', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}',
    );
    expect(argsHash('snooze_alert', { alert_id: 'x', duration: '1h' })).toBe(
      argsHash('snooze_alert', { duration: '1h', alert_id: 'x' }),
    );
    expect(argsHash('snooze_alert', { alert_id: 'x', duration: '1h' })).not.toBe(
      argsHash('snooze_alert', { alert_id: 'x', duration: '2h' }),
    );
    expect(argsHash('snooze_alert', { alert_id: 'x' })).not.toBe(argsHash('resolve_alert', { alert_id: 'x' }));
  });

  it('binds alert tools to the alert in scope, whatever alert_id the draft named', () => {
    const d = parseActionDraft(
      { tool: 'resolve_alert', args: { alert_id: 'someone-elses' }, rationale: 'done' },
      alertId,
    );
    expect(d).toEqual({
      tool: 'resolve_alert',
      args: { alert_id: alertId },
      rationale: 'done',
      risk: 'medium',
      alertId,
    });
  });

  it('lists every problem of a bad draft with its field', () => {
    const problems = (() => {
      try {
        parseActionDraft(
          {
            tool: 'open_proposal',
            args: { title: '', kind: 'Bad Kind', action: 'reconcile', proposed_intent: 'x' },
            rationale: '',
            risk: 'extreme',
          },
          alertId,
        );
      } catch (err) {
        return (err as ValidationFailed).extra.fields!.map((f) => f.loc.join('.'));
      }
      return [];
    })();
    expect(problems).toEqual(
      expect.arrayContaining(['args.device_id', 'args.title', 'args.kind', 'args.action', 'rationale', 'risk']),
    );
    expect(() => parseActionDraft({ tool: 'drop_database', args: {}, rationale: 'x' }, alertId)).toThrow(
      /must be one of acknowledge_alert/,
    );
    expect(() =>
      parseActionDraft({ tool: 'snooze_alert', args: { duration: '30d' }, rationale: 'x' }, alertId),
    ).toThrow(/args.duration/);
    expect(() =>
      parseActionDraft(
        { tool: 'create_maintenance_window', args: { name: 'w', duration: '1h' }, rationale: 'x' },
        alertId,
      ),
    ).toThrow(/scoped/);
  });
});

describe('the triage answer of a model', () => {
  it('reads the JSON object, also inside prose, and keeps well-formed causes only', () => {
    const r = parseTriageAnswer(
      'Here you go:\n{"summary":"Deploy broke it","likely_causes":[{"cause":"deploy","confidence":"certain","evidence":["a",3]},{"nope":1}]}\nThanks',
    );
    expect(r).toEqual({
      summary: 'Deploy broke it',
      likelyCauses: [{ cause: 'deploy', confidence: 'low', evidence: ['a'] }],
    });
  });

  it('falls back to the text as the summary', () => {
    expect(parseTriageAnswer('No idea {really}')).toEqual({ summary: 'No idea {really}', likelyCauses: [] });
    expect(parseTriageAnswer('')).toEqual({ summary: 'The model gave no summary.', likelyCauses: [] });
  });
});
