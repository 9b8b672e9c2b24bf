// The OpenAPI 3.1 document, generated from the routers createApp registered and the zod schemas
// their validate() middleware carries, so the document cannot drift from what the code checks.
import type Router from '@koa/router';
import { z } from 'zod';
import { validationOf } from '../http/validate.ts';
import { API_VERSIONS } from '../http/publicApi.ts';
import { ERROR_STATUS } from '../http/errors.ts';
import type { AppRouters } from '../http/routers.ts';
import { OPERATION_SUMMARIES } from './summaries.ts';
import { RESPONSE_SCHEMAS, STREAM_CONTENT } from './responses.ts';
import { ADMIN_RESPONSE_SCHEMAS } from './adminResponses.ts';

/** Every documented success body: the public API's and the admin API's (with the JSON root routes). */
export const ALL_RESPONSE_SCHEMAS: Record<string, z.ZodType> = { ...RESPONSE_SCHEMAS, ...ADMIN_RESPONSE_SCHEMAS };

export type ApiArea = 'public' | 'admin' | 'root';

/** One registered route, as the generator sees it. */
export interface RouteEntry {
  area: ApiArea;
  method: string; // lower case: get, post, ...
  /** OpenAPI path template: /api/admin/bots/{botId}. */
  path: string;
  paramNames: string[];
  /** Registered with router.all(): every HTTP method answers; the usual five are documented. */
  anyMethod?: boolean;
  /** The route's name, when registered as router.get('name', path, ...); the operation's summary. */
  name?: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
}

type JsonSchema = Record<string, unknown>;

/** Koa path syntax (`:id`, `{*rest}`, `*rest`) to an OpenAPI template (`{id}`). */
export function toOpenApiPath(koaPath: string): string {
  return koaPath
    .replace(/\{\/?\*(\w+)\}/g, '/{$1}')
    .replace(/\*(\w+)/g, '{$1}')
    .replace(/:(\w+)/g, '{$1}')
    .replace(/\/\//g, '/');
}

/** OpenAPI 3.1 can describe these; router.all() also registers WebDAV and other verbs it cannot. */
const OPENAPI_METHODS = ['get', 'put', 'post', 'delete', 'options', 'patch', 'trace'];
const ANY_METHOD_SHOWN = ['get', 'post', 'put', 'patch', 'delete'];

/** The methods a layer is documented with (HEAD is implied by GET in koa-router and omitted). */
export function documentedMethods(layerMethods: string[]): { methods: string[]; anyMethod: boolean } {
  const lower = layerMethods.map((m) => m.toLowerCase());
  // router.all() registers every verb Node knows; document it once, as "any method".
  if (lower.length > OPENAPI_METHODS.length + 1) return { methods: ANY_METHOD_SHOWN, anyMethod: true };
  return { methods: lower.filter((m) => OPENAPI_METHODS.includes(m)), anyMethod: false };
}

/** Every route (method + path) of the three routers, with the schemas validate() attached. */
export function listRoutes(routers: AppRouters): RouteEntry[] {
  const entries: RouteEntry[] = [];
  const areas: [ApiArea, Router<any>][] = [
    ['root', routers.root],
    ['public', routers.public],
    ['admin', routers.admin],
  ];
  for (const [area, router] of areas) {
    for (const layer of router.stack) {
      // Layers without methods are router.use() middleware (auth), not routes.
      if (layer.methods.length === 0 || typeof layer.path !== 'string') continue;
      const schemas: Partial<Record<'body' | 'query' | 'params', z.ZodType>> = {};
      for (const middleware of layer.stack) {
        const validation = validationOf(middleware);
        if (validation) schemas[validation.source] = validation.schema;
      }
      const paramNames = [...new Set(layer.paramNames.map((key) => String(key.name)))];
      const { methods, anyMethod } = documentedMethods(layer.methods);
      for (const method of methods) {
        entries.push({ area, method, path: toOpenApiPath(layer.path), paramNames, ...(anyMethod ? { anyMethod } : {}), ...(layer.name ? { name: layer.name } : {}), ...schemas });
      }
    }
  }
  return entries;
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  // 'input' for requests: what a client sends (defaults make fields optional); unrepresentable types become {}.
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** The zod schema accepts a missing body (validate() parses `{}` then). */
function acceptsEmpty(schema: z.ZodType): boolean {
  return schema.safeParse({}).success;
}

function pathParameter(name: string, area: ApiArea, params?: JsonSchema) {
  const declared = (params?.properties as Record<string, JsonSchema> | undefined)?.[name];
  let schema: JsonSchema = declared ?? { type: 'string' };
  // 2.0 first and as the default, so the reference page opens on the current version, not the deprecated 1.0.
  if (area === 'public' && name === 'version') schema = { type: 'string', enum: [...API_VERSIONS].reverse(), default: '2.0' };
  else if (area === 'public' && name === 'channelId') schema = { type: 'string', format: 'uuid' };
  else if (!declared && /Id$/.test(name)) schema = { type: 'string', format: 'uuid' };
  return { name, in: 'path', required: true, schema };
}

function queryParameters(query: z.ZodType) {
  const schema = jsonSchemaOf(query);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, in: 'query', required: required.has(name), schema: name === 'limit' && property.anyOf ? PAGE_LIMIT : property }));
}

/**
 * The list `limit` (pagination.ts): its schema takes a JSON number or the digits of a query
 * string, which a generator renders `number | (number | string)`; in a query it is an integer.
 */
const PAGE_LIMIT: JsonSchema = { type: 'integer', minimum: 1, maximum: 100, default: 10 };

const AREA_SECURITY: Record<ApiArea, Record<string, string[]>[]> = {
  public: [{ ApiSecretKey: [] }],
  admin: [{ AdminToken: [] }],
  // No key: health, docs and the console are open; a sync hook's secret is in its URL and a
  // gateway delivery carries a signature, both checked by the route itself.
  root: [],
};

function tagOf(entry: RouteEntry): string {
  if (entry.area !== 'root') return entry.area === 'public' ? 'Public API' : 'Admin API';
  const first = entry.path.split('/')[1] ?? '';
  if (['healthz', 'readyz', 'metrics'].includes(first)) return 'Operations';
  if (['docs', 'openapi.json', 'console', 'favicon.ico'].includes(first)) return 'Documentation and console';
  return first ? `Root: /${first}` : 'Root';
}

function operationId(entry: RouteEntry): string {
  const words = entry.path
    .replace('/api/public/channels/{channelId}/{version}', '/public')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1));
  return entry.method + words.join('');
}

/** Operations that answer 409 conflict: a second bootstrap of a team name, a claim of a claimed conversation, a reply before the claim. */
const CONFLICTS = new Set(['post /api/admin/bootstrap', 'post /api/admin/conversations/{conversationId}/claim', 'post /api/admin/conversations/{conversationId}/messages']);

/** Operations that take an Idempotency-Key (http/idempotency.ts; docs/API_NOTES.md, "Idempotent retries"). */
const IDEMPOTENT = new Set(['post /api/public/channels/{channelId}/{version}/conversation', 'post /api/public/channels/{channelId}/{version}/message']);

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Any 1-255 printable ASCII characters, unique per request (a UUID). A retry with the same key on the same channel within 24 h answers the first answer (with `Idempotent-Replayed: true`) and creates nothing; while the first still runs it is 409 `idempotency_key_in_use`; the same key with another route, version or body is 422 `idempotency_key_reused`. A request that was refused or failed frees its key.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

function errorResponses(entry: RouteEntry) {
  const ref = { $ref: '#/components/responses/Error' };
  const responses: Record<string, unknown> = { '400': ref, '404': ref };
  if (entry.area === 'public') responses['403'] = ref;
  if (entry.area === 'admin') responses['401'] = ref;
  if (CONFLICTS.has(`${entry.method} ${entry.path}`)) responses['409'] = ref;
  if (IDEMPOTENT.has(`${entry.method} ${entry.path}`)) Object.assign(responses, { '409': ref, '422': ref });
  responses.default = ref;
  return responses;
}

/** Root routes that answer something other than a JSON envelope. */
const NOT_JSON: Record<string, { description: string; content?: Record<string, unknown>; status?: string }> = {
  'get /metrics': { description: 'Prometheus metrics, text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } },
  'get /openapi.json': { description: 'This OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } },
  'get /docs': { description: 'The API reference page (Swagger UI)', content: { 'text/html': { schema: { type: 'string' } } } },
  'get /docs/{file}': { description: 'A Swagger UI file served from the package', content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } } } },
  'get /': { description: 'Redirects to /console', status: '302' },
  'get /favicon.ico': { description: 'The site icon (SVG)', content: { 'image/svg+xml': { schema: { type: 'string' } } } },
  'get /console': { description: 'The operator console (single-page app)', content: { 'text/html': { schema: { type: 'string' } } } },
  'get /console/{file}': { description: 'A console page (index.html) or one of its assets', content: { 'text/html': { schema: { type: 'string' } }, 'application/octet-stream': { schema: { type: 'string' } } } },
};

/** The success answer: the operation's own schema where there is one, else the JSON envelope. */
function successResponse(key: string) {
  const other = NOT_JSON[key];
  if (other) return { description: other.description, ...(other.content ? { content: other.content } : {}) };
  const known = ALL_RESPONSE_SCHEMAS[key];
  const json = { schema: known ? jsonSchemaOf(known, 'output') : { $ref: '#/components/schemas/Success' } };
  const content: Record<string, unknown> = { 'application/json': json };
  if (key.endsWith('}/message')) Object.assign(content, STREAM_CONTENT);
  return { description: known ? 'Success' : 'Success: `{ "success": true, ... }`', content };
}

/** Summary: the table's line, else the route's name, else the method and path (the test forbids that last one). */
export function summaryOf(entry: Pick<RouteEntry, 'method' | 'path' | 'name'>): string {
  return OPERATION_SUMMARIES[`${entry.method} ${entry.path}`] ?? entry.name ?? `${entry.method.toUpperCase()} ${entry.path}`;
}

function operationOf(entry: RouteEntry) {
  const key = `${entry.method} ${entry.path}`;
  const params = entry.params ? jsonSchemaOf(entry.params) : undefined;
  const parameters = [
    ...entry.paramNames.map((n) => pathParameter(n, entry.area, params)),
    ...(entry.query ? queryParameters(entry.query) : []),
    ...(IDEMPOTENT.has(key) ? [IDEMPOTENCY_KEY_PARAMETER] : []),
  ];
  const operation: Record<string, unknown> = {
    operationId: operationId(entry),
    summary: summaryOf(entry),
    tags: [tagOf(entry)],
    ...(entry.anyMethod ? { description: 'Answers any HTTP method; the usual ones are listed.', 'x-relay-any-method': true } : {}),
    parameters,
    responses: { [NOT_JSON[key]?.status ?? '2XX']: successResponse(key), ...errorResponses(entry) },
  };
  if (entry.body) {
    operation.requestBody = { required: !acceptsEmpty(entry.body), content: { 'application/json': { schema: jsonSchemaOf(entry.body) } } };
  }
  operation.security = AREA_SECURITY[entry.area];
  return operation;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, any>>;
  components: Record<string, unknown>;
  [key: string]: unknown;
}

export function buildOpenApi(routers: AppRouters, info: { version: string; serverUrl?: string }): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const entry of listRoutes(routers)) {
    paths[entry.path] ??= {};
    paths[entry.path]![entry.method] = operationOf(entry);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Relay',
      version: info.version,
      description:
        'The Bot Service API (public, versions 1.0 and 2.0), the admin API and the root routes (health, hooks, gateway). ' +
        'Generated from the routes the server registers and the zod schemas it validates requests with.',
    },
    // Relative unless PUBLIC_BASE_URL says where the service lives: the page then calls the server it came from.
    servers: [{ url: info.serverUrl ?? '/', description: info.serverUrl ? 'This service' : 'The server this document came from' }],
    tags: [
      { name: 'Public API', description: 'Authenticated with a channel key in X-API-Secret-Key.' },
      { name: 'Admin API', description: 'Authenticated with Authorization: Bearer $ADMIN_TOKEN.' },
    ],
    paths,
    components: {
      securitySchemes: {
        ApiSecretKey: { type: 'apiKey', in: 'header', name: 'X-API-Secret-Key' },
        AdminToken: { type: 'http', scheme: 'bearer' },
      },
      schemas: {
        Success: { type: 'object', required: ['success'], properties: { success: { const: true } }, additionalProperties: true },
        Error: {
          type: 'object',
          required: ['success', 'code', 'message'],
          properties: { success: { const: false }, code: { type: 'string', enum: Object.keys(ERROR_STATUS) }, message: { type: 'string' } },
        },
      },
      responses: {
        Error: { description: 'An error: `{ "success": false, "code", "message" }`', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    },
  };
}
