import { describe, expect, it } from 'vitest';
import {
  findProvider,
  getProvider,
  listProviders,
  registerProvider,
  secretFields,
} from '../../src/integrations/registry.js';
import {
  carryOverSecrets,
  effectiveConfig,
  maskedConfig,
  MASK,
  validateConfig,
} from '../../src/integrations/config.js';
import { alertmanagerProvider } from '../../src/integrations/providers/alertmanager.js';
import { valueAt, webhookProvider } from '../../src/integrations/providers/webhook.js';
import { labelsFingerprint, severityOf } from '../../src/integrations/providers/common.js';
import type { Provider } from '../../src/integrations/types.js';
import '../../src/integrations/providers/index.js';
import { NotFound, ValidationFailed } from '../../src/errors.js';

describe('provider registry', () => {
  it('registers the built-in providers and takes a new one (e.g. a GPU provider) without changes', () => {
    expect(listProviders().map((p) => p.id)).toEqual(expect.arrayContaining(['alertmanager', 'prometheus', 'webhook']));
    const gpu: Provider = {
      id: 'gpu-demo',
      name: 'GPU exporter',
      description: 'A provider added by a module of its own.',
      capabilities: { push: false, pull: true, health: false },
      configSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['url'],
        properties: {
          url: { type: 'string', format: 'uri', maxLength: 2048 },
          token: { type: 'string', 'x-secret': true },
        },
      },
      pull: async () => ({ signals: [], complete: true }),
    };
    registerProvider(gpu);
    expect(getProvider('gpu-demo')).toBe(gpu);
    expect(secretFields(gpu)).toEqual(['token']);
    expect(() => registerProvider(gpu)).toThrow(/already registered/);
    expect(() => registerProvider({ ...gpu, id: 'Bad Id' })).toThrow(/lowercase/);
    expect(() => getProvider('nagios')).toThrow(NotFound);
    expect(findProvider('nagios')).toBeUndefined();
  });
});

describe('config schema validation', () => {
  const schema = getProvider('prometheus').configSchema;
  it('names every problem by field', () => {
    expect(validateConfig({ url: 'x', targets: 1, extra: true }, schema, ['input', 'config'])).toEqual([
      { loc: ['input', 'config', 'extra'], msg: expect.stringMatching(/^is not a field of this provider/) },
      { loc: ['input', 'config', 'url'], msg: 'must be an absolute http or https URL' },
      { loc: ['input', 'config', 'targets'], msg: 'must be true or false' },
    ]);
    expect(validateConfig({}, schema, ['c'])).toEqual([{ loc: ['c', 'url'], msg: 'is required' }]);
    expect(validateConfig({}, schema, ['c'], { requireAll: false })).toEqual([]);
    expect(validateConfig({ url: 'http://user:pw@h/' }, schema, ['c'])[0].msg).toMatch(/credentials/);
    // Names an object inherits (`constructor`, `toString`) are not fields of a provider either.
    expect(
      validateConfig({ url: 'https://h', constructor: 'x', toString: 'y' }, schema, ['c']).map((p) => p.loc),
    ).toEqual([
      ['c', 'constructor'],
      ['c', 'toString'],
    ]);
    expect(validateConfig({ url: 'https://h', default_severity: 'loud' }, schema, ['c'])).toEqual([
      { loc: ['c', 'default_severity'], msg: 'must be one of info, warning, critical' },
    ]);
    expect(validateConfig([], schema, ['c'])).toEqual([{ loc: ['c'], msg: 'must be a JSON object' }]);
  });
  it('masks secrets, keeps them when the mask comes back, and layers defaults', () => {
    expect(maskedConfig({ url: 'u' }, ['bearer_token'])).toEqual({ url: 'u', bearer_token: MASK });
    const stored = { plain: { url: 'http://a.example:9090/x' }, secrets: { bearer_token: 's3cret' } };
    expect(carryOverSecrets(schema, stored, { bearer_token: MASK, url: 'http://a.example:9090/y' })).toEqual({
      config: { bearer_token: 's3cret', url: 'http://a.example:9090/y' },
      cleared: [],
    });
    expect(carryOverSecrets(schema, stored, { bearer_token: 'new', url: 'http://a.example:9090' }).config).toEqual({
      bearer_token: 'new',
      url: 'http://a.example:9090',
    });
    // A new host, port or scheme: the stored secret stays behind, and the answer says so.
    for (const url of ['http://b.example:9090/x', 'http://a.example:9091/x', 'https://a.example:9090/x'])
      expect(carryOverSecrets(schema, stored, { bearer_token: MASK, url })).toEqual({
        config: { url },
        cleared: ['bearer_token'],
      });
    expect(carryOverSecrets(schema, stored, { bearer_token: 'again', url: 'http://b.example' })).toEqual({
      config: { bearer_token: 'again', url: 'http://b.example' },
      cleared: [],
    });
    // The mask of a secret that was never stored is not a value.
    expect(carryOverSecrets(schema, { plain: {}, secrets: {} }, { bearer_token: MASK, url: 'u' }).config).toEqual({
      url: 'u',
    });
    expect(effectiveConfig(schema, { url: 'tenant', default_severity: 'critical' }, { url: 'own' })).toEqual({
      url: 'own',
      default_severity: 'critical',
      targets: true,
    });
  });
});

describe('provider mappings', () => {
  it('maps an Alertmanager webhook payload and rejects another version naming the field', () => {
    const signals = alertmanagerProvider.parsePush!(
      {
        version: '4',
        status: 'firing',
        receiver: 'ops',
        groupKey: '{}:{alertname="A"}',
        alerts: [
          {
            status: 'firing',
            labels: { alertname: 'A', severity: 'page' },
            annotations: { description: 'desc' },
            fingerprint: 'f1',
          },
          { status: 'resolved', labels: { alertname: 'B' }, annotations: {} },
        ],
      },
      { default_severity: 'warning' },
    );
    expect(signals.map((x) => [x.type, x.severity, x.summary, x.alert])).toEqual([
      ['alertmanager.firing', 'critical', 'desc', { key: 'f1', state: 'firing' }],
      [
        'alertmanager.resolved',
        'info',
        'Resolved: B',
        { key: labelsFingerprint({ alertname: 'B' }), state: 'resolved' },
      ],
    ]);
    expect(() =>
      alertmanagerProvider.parsePush!({ version: '3', alerts: [{ status: 'odd', labels: {} }] }, {}),
    ).toThrow(ValidationFailed);
    try {
      alertmanagerProvider.parsePush!({ version: '3', alerts: [{ status: 'odd', labels: {} }] }, {});
    } catch (err) {
      expect((err as ValidationFailed).extra.fields!.map((f) => f.loc.join('.'))).toEqual([
        'version',
        'alerts[0].status',
      ]);
    }
  });
  it('reads dot paths for the generic webhook and maps severities', () => {
    expect(valueAt({ a: { b: [{ c: 1 }] } }, 'a.b[0].c')).toBe(1);
    expect(valueAt({ a: 1 }, 'a.b.c')).toBeUndefined();
    const [sig] = webhookProvider.parsePush!(
      { msg: 'hi' },
      { paths: { summary: 'msg' }, event_type: 'x.y', default_severity: 'warning' },
    );
    expect(sig).toMatchObject({ type: 'x.y', summary: 'hi', severity: 'warning' });
    expect(sig.alert).toBeUndefined();
    expect(severityOf({ severity: 'WARN' }, 'info')).toBe('warning');
    expect(severityOf({}, 'critical')).toBe('critical');
  });
});
