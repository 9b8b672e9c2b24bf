// What differs between two honest runs of the same walk, masked so the rest must match exactly:
// ids, times, secrets and signatures, ports and temporary folders, durations and the host.
// Everything else (codes, messages, states, names, counts, field sets) is compared as recorded.

const MASKS: Array<[RegExp, string]> = [
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>'],
  [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g, '<time>'],
  [/(\/api\/public\/hooks\/<uuid>\/)[A-Za-z0-9_-]+/g, '$1<secret>'],
  [/\bsk_[A-Za-z0-9_-]+/g, '<key>'],
  [/\bwhsec_[A-Za-z0-9+/=]+/g, '<secret>'],
  [/\b(?:msg|evt)_[0-9a-f]{32}\b/g, '<provider-id>'],
  [/\bA-[0-9a-f]{8}\b/g, '<order-ref>'],
  [/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>'],
  [/\/tmp\/[^\s"',]+/g, '<tmp>'],
  [/t=\d+/g, 't=<time>'],
  [/\b[0-9a-f]{40,}\b/gi, '<hex>'],
  [/v1,[A-Za-z0-9+/=]+/g, 'v1,<base64>'],
  // An instance id: host, pid and a random suffix (src/jobs fleet registry).
  [/^[A-Za-z0-9.-]+-\d+-[0-9a-f]{6}$/, '<instance>'],
];

/** Values that differ on every run whatever their key holds. */
const VOLATILE_KEYS = new Set(['durationMs', 'pid', 'host', 'instance', 'secret', 'secretKey', 'heartbeatAt', 'version', 'generation', 'appliedAt', 'content-length', 'date']);
const VOLATILE_HEADER = /signature|timestamp|^x-github-delivery$|^webhook-id$/i;

function maskString(value: string): string {
  return MASKS.reduce((s, [pattern, replacement]) => s.replace(pattern, replacement), value);
}

export function normalize(value: unknown, key = ''): unknown {
  if (VOLATILE_KEYS.has(key) || VOLATILE_HEADER.test(key)) return `<${typeof value}>`;
  if (typeof value === 'string') {
    // JSON inside a string (a stored or sent body) is compared as JSON.
    if (/^[[{]/.test(value)) {
      try {
        return normalize(JSON.parse(value), key);
      } catch {
        // not JSON: masked as text
      }
    }
    return maskString(value);
  }
  if (Array.isArray(value)) return value.map((v) => normalize(v));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v, k)]));
  return value;
}

/**
 * The recording as committed: the throwaway keys and secrets the walk was given are replaced by
 * placeholders of the same form, so the reference shows their shape and a secret scanner finds none.
 */
export function withPlaceholderSecrets(json: string): string {
  return json
    .replace(/\bsk_[A-Za-z0-9_-]{20,}/g, (m) => `sk_${'EXAMPLEchannelKey'.padEnd(m.length - 3, '0')}`)
    .replace(/\bwhsec_[A-Za-z0-9+/=]{20,}/g, (m) => `whsec_${'EXAMPLEsigningSecret'.padEnd(m.length - 6, '0')}`);
}
