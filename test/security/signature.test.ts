// Body signatures: known vectors, a third-party verifier, and properties over arbitrary input.
import { createHmac } from 'node:crypto';
import { sign as octokitSign, verify as octokitVerify } from '@octokit/webhooks-methods';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signBody, verifySignature } from '../../src/security/signature.ts';

describe('signBody', () => {
  it('matches the RFC 4231 test case 2 HMAC-SHA256 vector', () => {
    expect(signBody('what do ya want for nothing?', 'Jefe')).toBe(
      'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('signs the empty body with a fixed, known digest', () => {
    expect(signBody(Buffer.alloc(0), 'key')).toBe(
      'sha256=5d5d139563c95b5967b9bd9a8c9b233a9dedb45072794cd232dc1b74832607d0',
    );
  });

  it('treats a string as its UTF-8 bytes', () => {
    const text = '{"name":"Zoë ✓"}';
    expect(signBody(text, 's3cret')).toBe(signBody(Buffer.from(text, 'utf8'), 's3cret'));
  });

  it('agrees with @octokit/webhooks-methods sign and verify', async () => {
    const body = JSON.stringify({ deliveryId: '0f6b1c7e-1f43-4a1e-9c43-0a6f1a1c2b3d', event: 'conversation.started', text: 'ünïcødé "q"\n' });
    const secret = 'hook-secret-123';
    expect(signBody(body, secret)).toBe(await octokitSign(secret, body));
    expect(await octokitVerify(secret, body, signBody(body, secret))).toBe(true);
    expect(verifySignature(Buffer.from(body), await octokitSign(secret, body), [secret])).toBe(true);
  });
});

describe('verifySignature', () => {
  const body = Buffer.from('{"event":"sync.success"}');
  const good = signBody(body, 'current');

  it('accepts a signature made with any of the given secrets (rotation)', () => {
    expect(verifySignature(body, good, ['previous', 'current'])).toBe(true);
    expect(verifySignature(body, good, ['current'])).toBe(true);
  });

  it('refuses a signature made with a secret that is not in the list', () => {
    expect(verifySignature(body, good, ['other'])).toBe(false);
    expect(verifySignature(body, good, [])).toBe(false);
  });

  it('ignores empty secrets instead of verifying with an empty key', () => {
    expect(verifySignature(body, signBody(body, ''), [''])).toBe(false);
  });

  it('accepts upper-case hex digits after the prefix', () => {
    expect(verifySignature(body, 'sha256=' + good.slice(7).toUpperCase(), ['current'])).toBe(true);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['the bare prefix', 'sha256='],
    ['huge', 'sha256=' + 'a'.repeat(1_000_000)],
    ['non-hex of the right length', 'sha256=' + 'z'.repeat(64)],
    ['one digit short', good.slice(0, -1)],
    ['one digit long', good + '0'],
    ['a wrong prefix', 'sha1=' + good.slice(7)],
    ['an upper-case prefix', 'SHA256=' + good.slice(7)],
    ['a prefix with spaces', ' sha256=' + good.slice(7, -1)],
    ['no prefix at all', good.slice(7)],
    ['duplicated as an array', [good, good]],
    ['an array of one', [good]],
  ] as const)('returns false for a header that is %s', (_name, header) => {
    expect(verifySignature(body, header as string | string[] | undefined, ['current'])).toBe(false);
  });
});

describe('signature properties', () => {
  const secret = fc.string({ minLength: 1, maxLength: 64 });
  const bytes = fc.uint8Array({ minLength: 0, maxLength: 2048 }).map((a) => Buffer.from(a));

  it('round-trips sign then verify over arbitrary bytes and secrets', () => {
    fc.assert(fc.property(bytes, secret, (b, s) => verifySignature(b, signBody(b, s), [s])));
  });

  it('matches a plain node:crypto HMAC over arbitrary bytes', () => {
    fc.assert(
      fc.property(bytes, secret, (b, s) => signBody(b, s) === 'sha256=' + createHmac('sha256', s).update(b).digest('hex')),
    );
  });

  it('fails when any single bit of the body is flipped', () => {
    const nonEmpty = fc.uint8Array({ minLength: 1, maxLength: 1024 }).map((a) => Buffer.from(a));
    fc.assert(
      fc.property(nonEmpty, secret, fc.nat(), fc.integer({ min: 0, max: 7 }), (b, s, at, bit) => {
        const header = signBody(b, s);
        const flipped = Buffer.from(b);
        flipped[at % flipped.length] ^= 1 << bit;
        return !verifySignature(flipped, header, [s]);
      }),
    );
  });

  it('fails when any single bit of the signature is flipped', () => {
    fc.assert(
      fc.property(bytes, secret, fc.integer({ min: 0, max: 255 }), (b, s, bitIndex) => {
        const digest = Buffer.from(signBody(b, s).slice(7), 'hex');
        digest[bitIndex >> 3] ^= 1 << (bitIndex & 7);
        return !verifySignature(b, 'sha256=' + digest.toString('hex'), [s]);
      }),
    );
  });

  it('fails for a re-serialised JSON body whose bytes differ from the signed ones', () => {
    fc.assert(
      fc.property(fc.jsonValue(), secret, (value, s) => {
        const sent = JSON.stringify(value, null, 2);
        const reserialised = JSON.stringify(JSON.parse(sent));
        fc.pre(sent !== reserialised);
        return !verifySignature(Buffer.from(reserialised), signBody(sent, s), [s]);
      }),
    );
  });

  it('never throws for arbitrary header values, strings or arrays', () => {
    const header = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.string({ maxLength: 64 }).map((h) => 'sha256=' + h),
      fc.stringMatching(/^sha256=[0-9a-fA-F]{60,68}$/),
      fc.array(fc.string({ maxLength: 80 }), { maxLength: 3 }),
      fc.constant(undefined),
    );
    fc.assert(
      fc.property(bytes, header, (b, h) => {
        expect(() => verifySignature(b, h, ['s'])).not.toThrow();
        return verifySignature(b, h, ['s']) === false;
      }),
    );
  });
});
