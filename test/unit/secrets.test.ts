import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  SecretBox,
  constantTimeEqual,
  hashPassword,
  randomSecret,
  tokenHash,
  verifyPassword,
} from '../../src/secrets.js';

describe('randomSecret', () => {
  it('starts with the prefix and carries the requested entropy in URL-safe characters', () => {
    const s = randomSecret('spat_', 32);
    expect(s).toMatch(/^spat_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(s.slice(5), 'base64url')).toHaveLength(32);
  });

  it('never repeats', () => {
    const seen = new Set(Array.from({ length: 1000 }, () => randomSecret('x_', 16)));
    expect(seen.size).toBe(1000);
  });
});

describe('tokenHash', () => {
  it('is the hex SHA-256 of the token, stable across calls', () => {
    expect(tokenHash('spat_abc')).toBe(crypto.createHash('sha256').update('spat_abc').digest('hex'));
    expect(tokenHash('spat_abc')).toBe(tokenHash('spat_abc'));
    expect(tokenHash('spat_abd')).not.toBe(tokenHash('spat_abc'));
  });
});

describe('constantTimeEqual', () => {
  it('is true only for identical strings', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });

  it('is false for strings of different lengths without throwing', () => {
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('abcd', '')).toBe(false);
  });

  it('compares bytes, so different unicode strings of equal length differ', () => {
    expect(constantTimeEqual('é', 'e')).toBe(false);
    expect(constantTimeEqual('ü', 'ü')).toBe(true);
  });
});

describe('password hashing', () => {
  it('verifies the right password and rejects a wrong one', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsf', stored)).toBe(false);
  });

  it('salts: the same password hashes differently each time', async () => {
    const [a, b] = await Promise.all([hashPassword('same'), hashPassword('same')]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same', a)).toBe(true);
    expect(await verifyPassword('same', b)).toBe(true);
  });

  it('rejects when there is no stored hash or an unknown scheme', async () => {
    expect(await verifyPassword('anything', null)).toBe(false);
    expect(await verifyPassword('anything', undefined)).toBe(false);
    expect(await verifyPassword('anything', 'bcrypt$2b$10$abc')).toBe(false);
  });

  it('rejects a stored hash whose digest was tampered with', async () => {
    const stored = await hashPassword('pw-123456');
    const parts = stored.split('$');
    const digest = Buffer.from(parts[5], 'base64url');
    digest[0] ^= 1;
    parts[5] = digest.toString('base64url');
    expect(await verifyPassword('pw-123456', parts.join('$'))).toBe(false);
  });
});

describe('SecretBox', () => {
  const box = new SecretBox('master-secret-'.padEnd(40, 'x'));

  it('opens what it sealed', () => {
    const sealed = box.seal('whsec_very-secret');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('whsec_very-secret');
    expect(box.open(sealed)).toBe('whsec_very-secret');
  });

  it('uses a fresh IV each time', () => {
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses a tampered ciphertext', () => {
    const [v, iv, tag, ct] = box.seal('payload').split('.');
    const bytes = Buffer.from(ct, 'base64url');
    bytes[0] ^= 1;
    expect(() => box.open([v, iv, tag, bytes.toString('base64url')].join('.'))).toThrow();
  });

  it('refuses what another master secret sealed, and unknown versions', () => {
    const other = new SecretBox('another-master-'.padEnd(40, 'y'));
    expect(() => box.open(other.seal('payload'))).toThrow();
    expect(() => box.open('v2.a.b.c')).toThrow('Unknown secret box version');
  });
});
