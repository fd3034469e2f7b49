import { describe, expect, it } from 'vitest';
import {
  assertDeliverableUrl,
  compileUrlPolicy,
  DisallowedAddressError,
  guardedLookup,
  isDisallowedAddress,
} from '../../src/net/url-guard.js';
import { classifyAddress, isPublicAddress } from '../../src/net/address-policy.js';
import { sendWebhookRequest } from '../../src/deliveries/sender.js';
import { ValidationFailed } from '../../src/errors.js';

const none = compileUrlPolicy([]);
const fakeDns = (map: Record<string, string[]>) => async (host: string) => {
  if (!map[host]) throw new Error('ENOTFOUND');
  return map[host].map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('SSRF guard for receiver URLs', () => {
  it('refuses private, loopback, link-local and other non-public addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ]) {
      expect(isDisallowedAddress(ip, none), ip).toBe(true);
    }
  });

  it('allows public addresses', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isDisallowedAddress(ip, none), ip).toBe(false);
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
    await expect(assertDeliverableUrl('https://evil.example/hook', none, 'url', dns)).rejects.toBeInstanceOf(
      ValidationFailed,
    );
    await expect(assertDeliverableUrl('https://good.example/hook', none, 'url', dns)).resolves.toBeInstanceOf(URL);
  });

  it('refuses bad schemes, credentials, IP literals and unresolvable hosts with a field-level 422', async () => {
    const dns = fakeDns({});
    for (const url of [
      'ftp://example.com/',
      'not a url',
      'https://user:pw@93.184.216.34/',
      'http://127.0.0.1:8080/',
      'http://[::1]/',
      'https://nowhere.invalid/',
    ]) {
      const err = await assertDeliverableUrl(url, none, ['input', 'url'], dns).catch((e) => e);
      expect(err, url).toBeInstanceOf(ValidationFailed);
      expect((err as ValidationFailed).extra.fields?.[0].loc).toEqual(['input', 'url']);
    }
  });

  it('the send-time lookup refuses a name that resolves to a disallowed address (DNS rebinding)', async () => {
    const lookup = (policy: ReturnType<typeof compileUrlPolicy>) =>
      new Promise<unknown>((resolve) =>
        guardedLookup(policy)('localhost', { all: true }, (err: unknown, addrs: unknown) => resolve(err ?? addrs)),
      );
    expect(await lookup(none)).toBeInstanceOf(DisallowedAddressError);
    expect(Array.isArray(await lookup(compileUrlPolicy(['127.0.0.0/8', '::1'])))).toBe(true);
  });
});

/**
 * Issue 10, item 7: every encoding of a special-purpose address is refused, by the classifier and by the
 * URL check that uses it; public examples pass. Classification only: nothing here connects anywhere.
 */
describe('address classification (src/net/address-policy.ts)', () => {
  // [URL host as typed, expected range of the address (or of the embedded IPv4 for wrapped forms)]
  const REFUSED: Array<[string, string]> = [
    ['2130706433', 'loopback'], // decimal 127.0.0.1
    ['017700000001', 'loopback'], // octal
    ['0x7f000001', 'loopback'], // hex
    ['0x7f.0.0.1', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['127.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['[::127.0.0.1]', 'ipv4Compatible'],
    ['[::7f00:1]', 'ipv4Compatible'],
    ['[::2]', 'ipv4Compatible'],
    ['[::ffff:127.0.0.1]', 'ipv4Mapped'],
    ['[::ffff:7f00:1]', 'ipv4Mapped'],
    ['[::ffff:10.0.0.1]', 'ipv4Mapped'],
    ['[::ffff:169.254.169.254]', 'ipv4Mapped'],
    ['[::ffff:0:7f00:1]', 'rfc6145'],
    ['[64:ff9b::7f00:1]', 'rfc6052'],
    ['[64:ff9b::a9fe:a9fe]', 'rfc6052'],
    ['[64:ff9b:1::808:808]', 'nat64LocalUse'],
    ['[2002:7f00:1::]', '6to4'],
    ['[2002:a9fe:a9fe::1]', '6to4'],
    ['[2001:0:4136:e378:8000:63bf:80ff:fffe]', 'teredo'], // client 127.0.0.1 behind a public server
    ['0.0.0.0', 'unspecified'],
    ['0', 'unspecified'],
    ['[::]', 'unspecified'],
    ['[::1]', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['169.254.169.254', 'linkLocal'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.1', 'benchmarking'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['192.0.0.8', 'ietfProtocolAssignments'],
    ['192.88.99.1', 'deprecated6to4Relay'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['[fd00::1]', 'uniqueLocal'],
    ['[fc00::1]', 'uniqueLocal'],
    ['[fe80::1]', 'linkLocal'],
    ['[fec0::1]', 'deprecatedSiteLocal'],
    ['[ff02::1]', 'multicast'],
    ['[100::1]', 'discard'],
    ['[2001:2::1]', 'benchmarking'],
    ['[2001:db8::1]', 'documentation'],
    ['[3fff::1]', 'documentation'],
    ['[2001:10::1]', 'deprecatedOrchid'],
    ['[5f00::1]', 'segmentRouting'],
    ['[4000::1]', 'unicast'], // outside 2000::/3: not allocated for global unicast
  ];
  const PUBLIC = [
    '8.8.8.8',
    '93.184.216.34',
    '1.1.1.1',
    '134744072',
    '[2606:4700::1111]',
    '[2a00:1450:4001:81b::200e]',
    '[::ffff:8.8.8.8]',
    '[64:ff9b::808:808]',
    '[2002:808:808::1]',
  ];

  it.each(REFUSED)('refuses %s (%s) in the classifier and as a receiver URL', async (host, range) => {
    const hostname = new URL(`http://${host}/`).hostname;
    const c = classifyAddress(hostname);
    expect(c, hostname).not.toBeNull();
    expect(c!.public).toBe(false);
    expect(c!.range).toBe(range);
    expect(isDisallowedAddress(hostname, none)).toBe(true);
    const err = await assertDeliverableUrl(`http://${host}/hook`, none, 'url', fakeDns({})).catch((e) => e);
    expect(err).toBeInstanceOf(ValidationFailed);
  });

  it('classifies the raw spellings by value, not only what the URL parser normalises', () => {
    for (const ip of [
      '2130706433',
      '017700000001',
      '0x7f000001',
      '0x7f.1',
      '0177.0.0.1',
      '127.1',
      '::127.0.0.1',
      '::ffff:127.0.0.1',
      '[::ffff:7f00:1]',
      'fe80::1%eth0',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
    expect(classifyAddress('::127.0.0.1')).toMatchObject({
      address: '::7f00:1',
      range: 'ipv4Compatible',
      embedded: [{ address: '127.0.0.1', range: 'loopback' }],
    });
    expect(classifyAddress('2002:7f00:1::')!.embedded![0]).toMatchObject({ address: '127.0.0.1', range: 'loopback' });
    expect(classifyAddress('2001:0:4136:e378:8000:63bf:80ff:fffe')!.embedded!.map((e) => e.address)).toEqual([
      '65.54.227.120',
      '127.0.0.1',
    ]);
    for (const junk of ['', 'localhost', '1.2.3.4.5', '08.0.0.1', '::g', '127.0.0.1/8', '[::1'])
      expect(classifyAddress(junk), junk).toBeNull();
    expect(isDisallowedAddress('not-an-ip', none)).toBe(true);
  });

  it.each(PUBLIC)('accepts the public address %s', async (host) => {
    const hostname = new URL(`http://${host}/`).hostname;
    expect(classifyAddress(hostname)?.public, hostname).toBe(true);
    expect(isDisallowedAddress(hostname, none)).toBe(false);
    await expect(assertDeliverableUrl(`https://${host}/hook`, none, 'url', fakeDns({}))).resolves.toBeInstanceOf(URL);
  });

  it('refuses a name that resolves to any encoded special address', async () => {
    const dns = fakeDns({
      'compat.example': ['::7f00:1'],
      'nat64.example': ['64:ff9b::a9fe:a9fe'],
      'mixed.example': ['2606:4700::1111', '2002:a00:1::'],
    });
    for (const host of ['compat.example', 'nat64.example', 'mixed.example']) {
      await expect(assertDeliverableUrl(`https://${host}/hook`, none, 'url', dns), host).rejects.toBeInstanceOf(
        ValidationFailed,
      );
    }
  });

  it('the allowlist still permits what it lists, and only that', () => {
    const p = compileUrlPolicy(['127.0.0.1', '100.64.0.0/10', 'fd00::/8']);
    expect(isDisallowedAddress('127.0.0.1', p)).toBe(false);
    expect(isDisallowedAddress('::ffff:127.0.0.1', p)).toBe(false); // the same socket destination
    expect(isDisallowedAddress('100.100.1.1', p)).toBe(false);
    expect(isDisallowedAddress('fd00::5', p)).toBe(false);
    // Other forms reach other places (a tunnel, a relay, a translator): not covered by the entry.
    for (const ip of ['::7f00:1', '2002:7f00:1::', '64:ff9b::7f00:1', '127.0.0.2', 'fe80::1'])
      expect(isDisallowedAddress(ip, p), ip).toBe(true);
  });

  it('the sender refuses an encoded IP-literal receiver before connecting (send-time check, no lookup for literals)', async () => {
    for (const url of ['http://[::127.0.0.1]:1/hook', 'http://[64:ff9b::7f00:1]:1/hook', 'http://0x7f000001:1/hook']) {
      const r = await sendWebhookRequest({ url, body: '{}', headers: {}, timeoutMs: 1000, policy: none });
      expect(r, url).toMatchObject({ status: null, disallowed: true });
      expect(r.error).toMatch(/not allowlisted/);
    }
  });
});
