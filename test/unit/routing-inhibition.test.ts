/**
 * Inhibition's evaluation in Alertmanager's semantics: `equal` labels (missing on both counts as equal),
 * an empty target list (every alert), the two-sided rule (an alert matching both sides is not inhibited by a
 * source that matches both sides too), and an alert never inhibiting itself.
 */
import { describe, expect, it } from 'vitest';
import {
  addInhibitionSource,
  compileInhibitRule,
  inhibitingAlert,
  type InhibitionSource,
  type InhibitionsByTenant,
} from '../../src/routing/inhibition.js';

const eq = (name: string, value: string) => ({ name, type: '=' as const, value });
const rule = (source: object[], target: object[], equal: string[]) =>
  compileInhibitRule({ id: 'r1', sourceMatchers: source, targetMatchers: target, equal });

describe('inhibitingAlert', () => {
  it('inhibits any alert with the same instance while NodeDown is live, and no other instance', () => {
    const t = { rules: [rule([eq('alertname', 'NodeDown')], [], ['instance'])], sources: [] as InhibitionSource[] };
    const all: InhibitionsByTenant = new Map([['t', t]]);
    addInhibitionSource(all, 't', { id: 'nd', labels: { alertname: 'NodeDown', instance: 'a' } });
    addInhibitionSource(all, 't', { id: 'x', labels: { alertname: 'DiskFull', instance: 'a' } });
    expect(t.sources.map((s) => s.id)).toEqual(['nd']);
    expect(inhibitingAlert(t, { alertname: 'DiskFull', instance: 'a' })).toEqual({ alertId: 'nd', ruleId: 'r1' });
    expect(inhibitingAlert(t, { alertname: 'DiskFull', instance: 'b' })).toBeNull();
    // NodeDown matches both sides; the only source matches both too: it does not inhibit another NodeDown.
    expect(inhibitingAlert(t, { alertname: 'NodeDown', instance: 'a' })).toBeNull();
    expect(inhibitingAlert(t, { alertname: 'NodeDown', instance: 'a' }, 'nd')).toBeNull();
  });

  it('counts an equal label missing on both sides as equal, and one missing on one side as different', () => {
    const t = {
      rules: [rule([eq('severity', 'critical')], [eq('severity', 'warning')], ['cluster'])],
      sources: [{ id: 'c', labels: { severity: 'critical', alertname: 'A' } }],
    };
    expect(inhibitingAlert(t, { severity: 'warning', alertname: 'B' })?.alertId).toBe('c');
    expect(inhibitingAlert(t, { severity: 'warning', alertname: 'B', cluster: 'eu' })).toBeNull();
    expect(inhibitingAlert(t, { severity: 'info', alertname: 'B' })).toBeNull();
  });

  it('lets a source inhibit an alert matching both sides when the source matches only the source side', () => {
    const t = {
      rules: [rule([eq('team', 'db')], [eq('severity', 'warning')], [])],
      sources: [{ id: 's', labels: { team: 'db', severity: 'critical' } }],
    };
    expect(inhibitingAlert(t, { team: 'db', severity: 'warning' })?.alertId).toBe('s');
    expect(inhibitingAlert(undefined, { team: 'db', severity: 'warning' })).toBeNull();
  });
});
