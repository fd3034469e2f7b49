import { describe, expect, it } from 'vitest';
import { configDrift, normalizeConfig } from '../../src/devices/diff.js';

describe('configuration drift', () => {
  it('reports in sync when only line endings and trailing whitespace differ', () => {
    const drift = configDrift(
      'hostname r1\ninterface e1\n  mtu 9000\n',
      'hostname r1\r\ninterface e1   \r\n  mtu 9000\r\n\r\n',
    );
    expect(drift).toEqual({ inSync: true, diff: '', linesAdded: 0, linesRemoved: 0 });
  });

  it('writes a unified diff from intended to observed with counts', () => {
    const drift = configDrift('hostname r1\nntp 10.0.0.1\nmtu 9000\n', 'hostname r1\nmtu 1500\nsnmp on\n', 'r1');
    expect(drift.inSync).toBe(false);
    expect(drift.linesAdded).toBe(2);
    expect(drift.linesRemoved).toBe(2);
    const lines = drift.diff.split('\n');
    expect(lines[0]).toBe('--- intended/r1');
    expect(lines[1]).toBe('+++ observed/r1');
    expect(lines[2]).toMatch(/^@@ -1,3 \+1,3 @@/);
    expect(lines).toEqual(
      expect.arrayContaining([' hostname r1', '-ntp 10.0.0.1', '-mtu 9000', '+mtu 1500', '+snmp on']),
    );
  });

  it('treats an empty observed configuration as everything removed', () => {
    const drift = configDrift('a\nb\n', '');
    expect(drift).toMatchObject({ inSync: false, linesAdded: 0, linesRemoved: 2 });
  });

  it('normalises to LF, no trailing blanks, one final newline', () => {
    expect(normalizeConfig('a  \r\nb\t\r\n\r\n')).toBe('a\nb\n');
    expect(normalizeConfig('\n\n')).toBe('');
  });
});
