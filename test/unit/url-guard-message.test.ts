/** The SSRF guard's refusal names the setting that allows the address (issue 24, point 8). */
import { describe, expect, it } from 'vitest';
import { assertDeliverableUrl, compileUrlPolicy, DisallowedAddressError } from '../../src/net/url-guard.js';

describe('SSRF refusal message', () => {
  it('a loopback or private URL is refused as not public, naming WEBHOOK_URL_ALLOWLIST', async () => {
    for (const url of ['http://127.0.0.1:9093/', 'http://10.0.0.5:9400/metrics', 'http://[::1]:8080/']) {
      const err = await assertDeliverableUrl(url, compileUrlPolicy([]), 'url').then(
        () => null,
        (e: Error & { fields?: unknown }) => e,
      );
      expect(err, url).not.toBeNull();
      expect(JSON.stringify({ message: err!.message, ...err })).toMatch(
        /not public; an operator can allow it with WEBHOOK_URL_ALLOWLIST/,
      );
    }
    expect(new DisallowedAddressError('rcv.local', '192.168.1.4').message).toMatch(/WEBHOOK_URL_ALLOWLIST/);
  });

  it('an allowlisted private address is accepted', async () => {
    await expect(
      assertDeliverableUrl('http://10.0.0.5:9400/metrics', compileUrlPolicy(['10.0.0.0/8']), 'url'),
    ).resolves.toBeInstanceOf(URL);
  });
});
