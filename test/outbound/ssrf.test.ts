// The SSRF table (issue 7 item 6): every non-public target is refused before anything is
// contacted, whether it is written literally in the URL or reached through DNS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOutboundUrl, isPublicAddress } from '../../src/outbound/addressPolicy.ts';
import { createOutboundClient } from '../../src/outbound/client.ts';
import { lookupAnswering } from './lookups.ts';
import { startSink, type Sink } from './sinks.ts';

const guarded = createOutboundClient({ allowPrivate: false, timeoutMs: 2000, responseLimitBytes: 1024 });
// A sink on loopback: if the guard let any loopback form through, it would be hit here.
let sink: Sink;
beforeAll(async () => {
  sink = await startSink((_req, res) => res.end('reached'));
});
afterAll(async () => {
  await guarded.close();
  await sink.close();
});

// Literal hosts: refused by the URL check, since net.connect never looks up an IP literal.
const literalHosts = [
  '127.0.0.1', '127.1', '2130706433', '0x7f.1', '0x7f000001', '0177.0.0.1', '017700000001', '127.255.255.254',
  '0.0.0.0', '0', '[::]', '[::1]', '[0:0:0:0:0:0:0:1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::127.0.0.1]',
  '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.0.1', '192.168.255.255',
  '100.64.0.1', '100.127.255.254', '169.254.169.254', '169.254.0.1', '[::ffff:169.254.169.254]', '[::ffff:10.0.0.1]',
  '[fd00::1]', '[fd00:ec2::254]', '[fc00::1]', '[fe80::1]', '[febf::1]', '[64:ff9b::7f00:1]', '[64:ff9b::a9fe:a9fe]',
  '[64:ff9b::808:808]', '[64:ff9b:1::1]', '[ff02::1]', '224.0.0.1', '239.255.255.250', '255.255.255.255',
  '192.0.0.8', '192.0.2.1', '198.18.0.1', '198.51.100.1', '203.0.113.1', '240.0.0.1', '[2001:db8::1]', '[2002:7f00:1::]',
  '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
  'localhost', 'LOCALHOST', 'localhost.', 'api.localhost',
];

describe('URL host normalisation the literal check relies on', () => {
  it.each([
    ['127.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0', '0.0.0.0'],
    ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]'],
    ['[0:0:0:0:0:0:0:1]', '[::1]'],
  ])('the WHATWG parser turns %s into %s', (host, normalised) => {
    expect(new URL(`http://${host}/`).hostname).toBe(normalised);
  });
});

describe('SSRF guard on literal hosts', () => {
  it.each(literalHosts)('refuses http://%s with blocked_address and contacts nothing', async (host) => {
    const before = sink.connections;
    for (const scheme of ['http', 'https']) {
      const res = await guarded.send({ method: 'POST', url: `${scheme}://${host}:${sink.port}/hook`, body: '{}' });
      expect(res).toMatchObject({ ok: false, status: null, error: { code: 'blocked_address' } });
    }
    expect(sink.connections).toBe(before);
  });
});

// Hostnames: refused on the address the resolver returns, at connect time.
const resolvedAddresses = [
  '127.0.0.1', '127.0.1.1', '0.0.0.0', '10.1.2.3', '172.20.0.5', '192.168.1.10', '100.100.100.200', '169.254.169.254',
  '::1', '::', '::ffff:127.0.0.1', '::ffff:192.168.0.1', 'fd00::5', 'fd00:ec2::254', 'fe80::1', '64:ff9b::a00:1', 'ff02::1',
];

describe('SSRF guard on resolved addresses', () => {
  it.each(resolvedAddresses)('refuses a hostname that resolves to %s', async (address) => {
    const lookup = lookupAnswering([[address]]);
    const client = createOutboundClient({ allowPrivate: false, timeoutMs: 2000, responseLimitBytes: 1024, lookup });
    const before = sink.connections;
    const res = await client.send({ method: 'GET', url: `http://hooks.example.com:${sink.port}/` });
    await client.close();
    expect(res).toMatchObject({ ok: false, status: null, error: { code: 'blocked_address' } });
    expect(res.error?.message).toContain(address);
    expect(lookup.calls).toBeGreaterThan(0);
    expect(sink.connections).toBe(before);
  });

  it('refuses an answer that mixes a public and a private address', async () => {
    const client = createOutboundClient({ allowPrivate: false, timeoutMs: 2000, responseLimitBytes: 1024, lookup: lookupAnswering([['8.8.8.8', '127.0.0.1']]) });
    const res = await client.send({ method: 'GET', url: `http://mixed.example.com:${sink.port}/` });
    await client.close();
    expect(res.error?.code).toBe('blocked_address');
  });

  it('refuses a hostname whose DNS answer turns private between save and send (rebinding)', async () => {
    const lookup = lookupAnswering([['93.184.216.34'], ['127.0.0.1']]);
    const url = `http://rebind.example.com:${sink.port}/hook`;
    // At save time the name resolves to a public address and passes.
    expect(await checkOutboundUrl(url, { allowPrivate: false, lookup })).toBeNull();
    const client = createOutboundClient({ allowPrivate: false, timeoutMs: 2000, responseLimitBytes: 1024, lookup });
    const before = sink.connections;
    const res = await client.send({ method: 'POST', url, body: '{}' });
    await client.close();
    expect(res).toMatchObject({ ok: false, status: null, error: { code: 'blocked_address' } });
    expect(lookup.calls).toBe(2);
    expect(sink.connections).toBe(before);
  });

  it('refuses a redirect to a private target without following it', async () => {
    const bouncer = await startSink((_req, res) => res.writeHead(302, { location: `http://169.254.169.254/latest/meta-data/` }).end());
    // The bouncer is on loopback, so it can only be reached with the guard lifted for it.
    const open = createOutboundClient({ allowPrivate: true, timeoutMs: 2000, responseLimitBytes: 1024 });
    const res = await open.send({ method: 'GET', url: bouncer.url });
    await Promise.all([open.close(), bouncer.close()]);
    expect(res).toMatchObject({ ok: false, status: 302, error: { code: 'redirect' } });
    expect(res.error?.message).toContain('169.254.169.254');
  });

  it('reaches a loopback sink once OUTBOUND_ALLOW_PRIVATE lifts the guard', async () => {
    const open = createOutboundClient({ allowPrivate: true, timeoutMs: 2000, responseLimitBytes: 1024 });
    const res = await open.send({ method: 'GET', url: `http://localhost:${sink.port}/` });
    await open.close();
    expect(res).toMatchObject({ ok: true, body: 'reached' });
  });
});

describe('checkOutboundUrl at save time', () => {
  it('reports a literal private host, a private DNS answer and a bad scheme', async () => {
    expect(await checkOutboundUrl('http://127.1/', { allowPrivate: false })).toMatchObject({ code: 'blocked_address' });
    expect(await checkOutboundUrl('https://x.example.com/', { allowPrivate: false, lookup: lookupAnswering([['10.0.0.1']]) })).toMatchObject({ code: 'blocked_address' });
    expect(await checkOutboundUrl('gopher://x.example.com/', { allowPrivate: false })).toMatchObject({ code: 'invalid_url' });
  });

  it('accepts a public answer, and anything with the guard lifted', async () => {
    expect(await checkOutboundUrl('https://x.example.com/', { allowPrivate: false, lookup: lookupAnswering([['1.1.1.1']]) })).toBeNull();
    expect(await checkOutboundUrl('http://127.0.0.1:9/', { allowPrivate: true })).toBeNull();
  });
});

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '100.63.255.255', '100.128.0.0', '172.15.255.255', '172.32.0.0', '::ffff:8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])(
    'treats %s as public',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );

  it.each(['not-an-ip', '', '1.2.3', '::ffff:127.0.0.1', '64:ff9b::808:808', '::8.8.8.8', '4000::1'])('treats %s as not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});
