import { describe, expect, it } from 'vitest';
import { assertDeliverableUrl, compileUrlPolicy, DisallowedAddressError, guardedLookup, isDisallowedAddress } from '../../src/webhooks/url-guard.js';
import { ValidationFailed } from '../../src/errors.js';

const none = compileUrlPolicy([]);
const fakeDns = (map: Record<string, string[]>) => async (host: string) => {
  if (!map[host]) throw new Error('ENOTFOUND');
  return map[host].map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('SSRF guard for receiver URLs', () => {
  it('refuses private, loopback, link-local and other non-public addresses', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
      expect(isDisallowedAddress(ip, none), ip).toBe(true);
    }
  });

  it('allows public addresses', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isDisallowedAddress(ip, none), ip).toBe(false);
  });

  it('an allowlist permits listed addresses, CIDRs and host names only', () => {
    const p = compileUrlPolicy(['127.0.0.1', '10.0.0.0/8', 'hooks.internal']);
    expect(isDisallowedAddress('127.0.0.1', p)).toBe(false);
    expect(isDisallowedAddress('127.0.0.2', p)).toBe(true);
    expect(isDisallowedAddress('10.200.0.1', p)).toBe(false);
    expect(isDisallowedAddress('192.168.0.1', p)).toBe(true);
    expect(p.allowedHosts.has('hooks.internal')).toBe(true);
    expect(() => compileUrlPolicy(['10.0.0.0/40'])).toThrow(/CIDR/);
  });

  it('refuses a host name that resolves to a private address, and accepts a public one', async () => {
    const dns = fakeDns({ 'evil.example': ['93.184.216.34', '10.0.0.5'], 'good.example': ['93.184.216.34'] });
    await expect(assertDeliverableUrl('https://evil.example/hook', none, 'url', dns)).rejects.toBeInstanceOf(ValidationFailed);
    await expect(assertDeliverableUrl('https://good.example/hook', none, 'url', dns)).resolves.toBeInstanceOf(URL);
  });

  it('refuses bad schemes, credentials, IP literals and unresolvable hosts with a field-level 422', async () => {
    const dns = fakeDns({});
    for (const url of ['ftp://example.com/', 'not a url', 'https://user:pw@93.184.216.34/', 'http://127.0.0.1:8080/', 'http://[::1]/', 'https://nowhere.invalid/']) {
      const err = await assertDeliverableUrl(url, none, ['input', 'url'], dns).catch((e) => e);
      expect(err, url).toBeInstanceOf(ValidationFailed);
      expect((err as ValidationFailed).extra.fields?.[0].loc).toEqual(['input', 'url']);
    }
  });

  it('the send-time lookup refuses a name that resolves to a disallowed address (DNS rebinding)', async () => {
    const lookup = (policy: ReturnType<typeof compileUrlPolicy>) =>
      new Promise<unknown>((resolve) => guardedLookup(policy)('localhost', { all: true }, (err: unknown, addrs: unknown) => resolve(err ?? addrs)));
    expect(await lookup(none)).toBeInstanceOf(DisallowedAddressError);
    expect(Array.isArray(await lookup(compileUrlPolicy(['127.0.0.0/8', '::1'])))).toBe(true);
  });
});
