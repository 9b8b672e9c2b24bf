// The error answers of each operation: which statuses it can really give, with a schema per status
// whose `code` lists only the codes of that status (src/http/errors.ts), and a real answer as the
// example: the operation's own recorded one, else one recorded for another operation with that
// status (recordedExamples.ts), so no example is made up by the reference page.
import { ERROR_STATUS } from '../http/errors.ts';
import { examplesOf, recordedExchanges, sharedErrorExchange } from './examples.ts';
import { GATEWAY_INTAKE } from './gateway.ts';

export type ErrorArea = 'public' | 'admin' | 'root';

export interface ErrorEntry {
  area: ErrorArea;
  method: string;
  path: string;
  hasBody: boolean;
  hasQuery: boolean;
  hasParams: boolean;
}

const P = '/api/public/channels/{channelId}/{version}';
const A = '/api/admin';
const HOOK = '/api/public/hooks/{hookId}/{secret}';

/** 409: a second bootstrap of a team name, a claim of a claimed conversation, a reply before the claim, a release of an unclaimed one. */
const CONFLICTS = new Set([`post ${A}/bootstrap`, `post ${A}/conversations/{conversationId}/claim`, `post ${A}/conversations/{conversationId}/messages`, `post ${A}/conversations/{conversationId}/release`]);

/** Operations that take an Idempotency-Key (http/idempotency.ts): 409 while the first runs, 422 for another request under the key. */
export const IDEMPOTENT = new Set([`post ${P}/conversation`, `post ${P}/message`]);

export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Any 1-255 printable ASCII characters, unique per request (a UUID). A retry with the same key on the same channel within 24 h answers the first answer (with `Idempotent-Replayed: true`) and creates nothing; while the first still runs it is 409 `idempotency_key_in_use`; the same key with another route, version or body is 422 `idempotency_key_reused`. A request that was refused or failed frees its key.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

/** 429: a plan limit or a sync already running (src/datasources/service.ts, sync.ts, src/chat/limits.ts). */
const TOO_MANY = new Set([`post ${P}/data-sources`, `post ${P}/data-sources/sync`, `post ${P}/conversation`, `post ${P}/message`, `post ${HOOK}`]);

/** A disabled sync hook with the right secret is 403 `hook_disabled`. */
const FORBIDDEN_ROOT = new Set([`post ${HOOK}`]);

/** The gateway intake reads its own bytes: no API parser, so its refusals are its own (docs/GATEWAY.md, "Intake"). */
const GATEWAY_ERRORS = ['400', '401', '404', '413', '415'];

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * The statuses an operation answers besides success: those every route of its kind can give
 * (credentials, validation, the JSON parser, plan limits), and every one the recording saw.
 */
export function errorStatusesOf(entry: ErrorEntry): string[] {
  const key = `${entry.method} ${entry.path}`;
  if (key === GATEWAY_INTAKE) return GATEWAY_ERRORS;
  const statuses = new Set<string>();
  const parsesJson = entry.area !== 'root' && BODY_METHODS.has(entry.method);
  if (entry.hasBody || entry.hasQuery || entry.hasParams || parsesJson) statuses.add('400');
  if (entry.area === 'admin') statuses.add('401');
  if (entry.area === 'public' || FORBIDDEN_ROOT.has(key)) statuses.add('403');
  // Any public route names a channel; elsewhere an unknown id is 404 where the recording saw one.
  if (entry.area === 'public') statuses.add('404');
  if (CONFLICTS.has(key)) statuses.add('409');
  // The JSON parser (src/http/body.ts) answers these before any route code runs.
  if (parsesJson) ['413', '415'].forEach((s) => statuses.add(s));
  if (IDEMPOTENT.has(key)) ['409', '422'].forEach((s) => statuses.add(s));
  if (TOO_MANY.has(key)) statuses.add('429');
  for (const exchange of recordedExchanges(key)) if (exchange.status >= 400) statuses.add(String(exchange.status));
  return [...statuses].sort();
}

const codesOf = (status: number) => Object.entries(ERROR_STATUS).filter(([, s]) => s === status).map(([code]) => code);
const STATUS_WORDS: Record<string, string> = {
  '400': 'The request is malformed or fails validation (the message names the field)',
  '401': 'Not authenticated',
  '403': 'Not allowed',
  '404': 'Not found',
  '405': 'Method not allowed',
  '409': 'Conflict with the current state',
  '413': 'The body is too large',
  '415': 'The body is not in a content type the route takes',
  '422': 'The Idempotency-Key was used for another request',
  '429': 'A plan limit is reached, or a sync is already running',
};

/** `#/components/schemas/Error404`: the error body with the codes a 404 carries. */
const schemaName = (status: string) => `Error${status}`;

function errorSchema(status: string) {
  return {
    type: 'object',
    required: ['success', 'code', 'message'],
    properties: { success: { const: false }, code: { type: 'string', enum: codesOf(Number(status)) }, message: { type: 'string' } },
    additionalProperties: true,
  };
}

/** The server's own failures, any operation: their codes, `internal_error` first (with the `requestId` of its log line). */
const SERVER_CODES = Object.entries(ERROR_STATUS)
  .filter(([, s]) => s >= 500)
  .map(([code]) => code)
  .sort((a, b) => Number(b === 'internal_error') - Number(a === 'internal_error'));

/**
 * The error schema of each status used, and a reusable answer for each status some operation
 * shares (one it was not seen giving itself), with a recorded example from whichever operation gave it.
 */
export function errorComponents(statuses: Iterable<string>, shared: Set<string>) {
  const schemas: Record<string, unknown> = {
    ServerError: {
      type: 'object',
      required: ['success', 'code', 'message'],
      properties: { success: { const: false }, code: { type: 'string', enum: SERVER_CODES }, message: { type: 'string' }, requestId: { type: 'string' } },
      additionalProperties: true,
    },
  };
  const responses: Record<string, unknown> = {
    ServerError: {
      description:
        'A failure of the server or what it depends on: 500 `internal_error` (with the `requestId` of its log line), 502 `upstream_error`, 503 `database_unavailable` or `request_timeout` (with `Retry-After: 5`).',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ServerError' } } },
    },
  };
  for (const status of [...new Set(statuses)].sort()) {
    schemas[schemaName(status)] = errorSchema(status);
    if (!shared.has(status)) continue;
    const example = sharedErrorExchange(Number(status), [GATEWAY_INTAKE]);
    responses[schemaName(status)] = {
      description: STATUS_WORDS[status] ?? 'An error',
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName(status)}` }, ...(example ? { examples: examplesOf([example.exchange], `from ${example.operation}`) } : {}) } },
    };
  }
  return { schemas, responses };
}

/** The operation's error answers: its own recorded example where it has one, else the shared answer. */
export function errorResponsesOf(entry: ErrorEntry): Record<string, unknown> {
  const key = `${entry.method} ${entry.path}`;
  const out: Record<string, unknown> = {};
  for (const status of errorStatusesOf(entry)) {
    const own = recordedExchanges(key).filter((e) => String(e.status) === status);
    out[status] = own.length
      ? { description: STATUS_WORDS[status] ?? 'An error', content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName(status)}` }, examples: examplesOf(own) } } }
      : { $ref: `#/components/responses/${schemaName(status)}` };
  }
  out.default = { $ref: '#/components/responses/ServerError' };
  return out;
}
