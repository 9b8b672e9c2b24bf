// SSRF policy for outgoing requests: which addresses we may dial, checked on the literal
// host of a URL and again on every address DNS returns at connect time (docs/OUTBOUND.md).
import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Raised by the guarded lookup; the client maps it to the 'blocked_address' error code. */
export class BlockedAddressError extends Error {
  readonly code = 'ERR_OUTBOUND_BLOCKED_ADDRESS';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(host === address ? `address ${address} is not public` : `${host} resolves to ${address}, which is not public`);
    this.name = 'BlockedAddressError';
  }
}

/**
 * True only for globally routable unicast addresses. This is an allowlist on purpose:
 * any range ipaddr.js knows as special (loopback, private, link-local incl. 169.254.169.254,
 * CGNAT, unspecified, multicast, broadcast, reserved, benchmarking, ULA fc00::/7, fe80::/10,
 * NAT64 64:ff9b::/96 and /48, 6to4, Teredo, discard, ...) is refused. IPv4-mapped IPv6
 * (::ffff:a.b.c.d) is judged by the IPv4 address it carries, because that is what the kernel dials.
 */
export function isPublicAddress(address: string): boolean {
  const canonical = canonicalAddress(address);
  if (canonical === null) return false;
  let ip = ipaddr.parse(canonical);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (ip.range() !== 'unicast') return false;
  if (ip.kind() === 'ipv6') {
    // Only 2000::/3 is allocated global unicast; this also refuses the deprecated
    // IPv4-compatible form ::a.b.c.d, which ipaddr.js reports as plain 'unicast'.
    const first = (ip as ipaddr.IPv6).parts[0];
    if (first < 0x2000 || first > 0x3fff) return false;
  }
  return true;
}

/**
 * The address in the form the kernel will dial, or null. Only strict forms pass net.isIP
 * (ipaddr.js alone accepts classful `1.2.3`). IPv6 is first rewritten to hex by the WHATWG
 * serialiser, because ipaddr.js reads the embedded form `::8.8.8.8` as IPv4-mapped
 * `::ffff:8.8.8.8`, while the kernel dials the IPv4-compatible `::808:808`.
 */
function canonicalAddress(address: string): string | null {
  const family = net.isIP(address);
  if (family === 4) return address;
  if (family !== 6) return null;
  try {
    return unbracket(new URL(`http://[${address}]/`).hostname);
  } catch {
    return null; // zone ids (fe80::1%eth0) and other forms a URL cannot carry
  }
}

/** `[::1]` → `::1`; URL.hostname keeps the brackets of an IPv6 literal. */
export function unbracket(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Checks a URL's host before any socket is opened. IP literals never reach DNS (net.connect
 * skips the lookup for them), so they must be judged here. The WHATWG parser has already
 * normalised numeric forms such as `127.1`, `2130706433` and `0x7f.1` to dotted quads.
 * `localhost` names are refused outright (RFC 6761), whatever the resolver says.
 */
export function blockedHostReason(hostname: string): string | null {
  const host = unbracket(hostname).toLowerCase();
  if (net.isIP(host)) return isPublicAddress(host) ? null : `address ${host} is not public`;
  const bare = host.endsWith('.') ? host.slice(0, -1) : host;
  if (bare === 'localhost' || bare.endsWith('.localhost')) return `${host} is a loopback name`;
  return null;
}

export type UrlFailure = { code: 'invalid_url' | 'blocked_address'; message: string };

/** Parses a target URL: http(s) only, and (unless private targets are allowed) a public literal host. */
export function parseOutboundUrl(raw: string, allowPrivate: boolean): URL | UrlFailure {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { code: 'invalid_url', message: 'not a valid absolute URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { code: 'invalid_url', message: `scheme ${url.protocol} is not allowed (http and https only)` };
  }
  if (!allowPrivate) {
    const reason = blockedHostReason(url.hostname);
    if (reason) return { code: 'blocked_address', message: reason };
  }
  return url;
}

type LookupCallback = Parameters<LookupFunction>[2];
interface ResolvedAddress { address: string; family: number }

function asAddressList(address: string | dns.LookupAddress[], family?: number): ResolvedAddress[] {
  if (Array.isArray(address)) return address.map((a) => ({ address: a.address, family: a.family }));
  return [{ address, family: family ?? (net.isIPv6(address) ? 6 : 4) }];
}

/**
 * Wraps a resolver so that a connection is refused when ANY address in the answer is not
 * public. Refusing the whole answer (instead of filtering it) keeps a mixed answer from
 * being steered onto the private address by happy-eyeballs ordering. Because this runs at
 * connect time, a hostname that was public when the hook was saved and resolves to a
 * private address later (DNS rebinding) is refused on the address actually dialled.
 */
export function guardedLookup(base: LookupFunction = dns.lookup as LookupFunction): LookupFunction {
  return (hostname, options, callback: LookupCallback) => {
    base(hostname, { ...options, all: true }, (err, address, family) => {
      if (err) return callback(err, '', 0);
      const list = asAddressList(address, family);
      if (list.length === 0) {
        const notFound = Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' });
        return callback(notFound, '', 0);
      }
      const blocked = list.find((a) => !isPublicAddress(a.address));
      if (blocked) return callback(new BlockedAddressError(hostname, blocked.address), '', 0);
      if (options.all) return callback(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  };
}

/**
 * Save-time check of a target URL (scheme, literal host and the current DNS answer), for
 * early feedback only: the answer can change, so the client checks again when it dials.
 * Resolves to null when the URL is acceptable now; DNS failures are not held against it.
 */
export async function checkOutboundUrl(
  raw: string,
  opts: { allowPrivate: boolean; lookup?: LookupFunction },
): Promise<UrlFailure | null> {
  const url = parseOutboundUrl(raw, opts.allowPrivate);
  if (!(url instanceof URL)) return url;
  const host = unbracket(url.hostname);
  if (opts.allowPrivate || net.isIP(host)) return null;
  const lookup = guardedLookup(opts.lookup);
  return new Promise((resolve) => {
    lookup(host, { all: true }, (err) => {
      resolve(err instanceof BlockedAddressError ? { code: 'blocked_address', message: err.message } : null);
    });
  });
}
