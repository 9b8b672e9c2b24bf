// The gateway intake, POST /gateway/{source}, as a client of each scheme sees it: the headers the
// five schemes read (src/gateway/schemes/), the body as JSON (and GitHub's form encoding), and
// the answers of docs/GATEWAY.md, "Intake". It reads its raw bytes itself, so none of this comes
// from a zod schema; the examples are recorded deliveries of each scheme.
import { parameterExampleOf, requestExamplesOf } from './examples.ts';

export const GATEWAY_INTAKE = 'post /gateway/{source}';

interface SchemeHeader {
  name: string;
  scheme: string;
  description: string;
}

const HEADERS: SchemeHeader[] = [
  { name: 'X-Service-Signature', scheme: 'relay', description: '`sha256=` and the hex HMAC-SHA256 of the exact raw body under one of the source secrets.' },
  {
    name: 'X-Relay-Signature',
    scheme: 'relay',
    description:
      '`t=<unix seconds>,v1=<hex>`: HMAC-SHA256 of `<t>.<X-Service-Delivery-Id>.<X-Service-Event>.<true|false>.<body>`. Optional until the source has sent it once, required from then on; the time must be within the source tolerance (default 300 s).',
  },
  { name: 'X-Service-Delivery-Id', scheme: 'relay', description: 'The delivery id, a UUID (the de-duplication key when X-Relay-Signature covers it; else the body `deliveryId`, else the body digest).' },
  { name: 'X-Service-Event', scheme: 'relay', description: 'The event name; it routes only when X-Relay-Signature covers it (else the body `event`, else the body shape).' },
  { name: 'X-Service-Test', scheme: 'relay', description: '`true` on a test send: stored and processed like others, rules see `test: true`.' },
  { name: 'X-Secret-Key', scheme: 'relay', description: 'The legacy shared secret, accepted only where the source sets `allowLegacySecretHeader` and no signature header is sent.' },
  { name: 'webhook-id', scheme: 'standard-webhooks', description: 'The message id (signed): the delivery id.' },
  { name: 'webhook-timestamp', scheme: 'standard-webhooks', description: 'Unix seconds (signed), within the source tolerance.' },
  {
    name: 'webhook-signature',
    scheme: 'standard-webhooks',
    description: 'Space-separated `v1,<base64>` of HMAC-SHA256(`<webhook-id>.<webhook-timestamp>.<body>`), keyed with the base64 after `whsec_`.',
  },
  { name: 'X-Hub-Signature-256', scheme: 'github', description: '`sha256=` and the hex HMAC-SHA256 of the raw body (the form bytes when form-encoded). GitHub signs no time.' },
  { name: 'X-GitHub-Delivery', scheme: 'github', description: 'Required, unsigned: kept with the headers; the delivery id is the body digest.' },
  { name: 'X-GitHub-Event', scheme: 'github', description: 'The event name, unsigned (`signed.event` is false).' },
  { name: 'Stripe-Signature', scheme: 'stripe', description: '`t=<unix seconds>,v1=<hex>[,v1=…]`: HMAC-SHA256 of `<t>.<body>`; the body `id`, `type` and `livemode` give the id, event and test flag.' },
];

export const GATEWAY_DESCRIPTION = [
  'Receives one webhook delivery for the source named in the path (GATEWAY_CONFIG `sources`), verifies it under the source scheme over the exact raw bytes, stores it and answers before any rule runs (docs/GATEWAY.md).',
  '',
  '| scheme | headers |',
  '| --- | --- |',
  ...['relay', 'standard-webhooks', 'github', 'stripe'].map((scheme) => `| \`${scheme}\` | ${HEADERS.filter((h) => h.scheme === scheme).map((h) => `\`${h.name}\``).join(', ')} |`),
  '| `hmac` | the names the source configures: `hmac.header` (the digest, after `hmac.prefix`), `hmac.timestampHeader`, `hmac.idHeader`, `hmac.eventHeader` |',
  '',
  'Answers 202 with the stored `id` on the first arrival of a delivery id, and 200 with `duplicate: true` on any later one.',
].join('\n');

/** Every scheme header, optional (a source reads only its scheme's), with a recorded value as example. */
export function gatewayHeaderParameters() {
  return HEADERS.map((h) => {
    const example = parameterExampleOf(GATEWAY_INTAKE, 'headers', h.name);
    return { name: h.name, in: 'header', required: false, description: `**${h.scheme}**: ${h.description}`, schema: { type: 'string' }, ...(example !== undefined ? { example } : {}) };
  });
}

export function gatewayRequestBody() {
  const examples = requestExamplesOf(GATEWAY_INTAKE);
  const json = examples['application/json'];
  const form = examples['application/x-www-form-urlencoded'];
  return {
    required: true,
    description: 'The event as a JSON object, at most the source `maxBodyBytes` (default 1 MiB). A `github` source also takes GitHub form encoding, the JSON in its `payload` field.',
    content: {
      'application/json': { schema: { type: 'object', additionalProperties: true }, ...(json ? { examples: json } : {}) },
      'application/x-www-form-urlencoded': {
        schema: { type: 'object', required: ['payload'], properties: { payload: { type: 'string', description: 'The event JSON (`github` sources only).' } } },
        ...(form ? { examples: form } : {}),
      },
    },
  };
}
