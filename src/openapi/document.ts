// The OpenAPI 3.1 document, generated from the routers createApp registered and the zod schemas
// their validate() middleware carries, so the document cannot drift from what the code checks.
import type Router from '@koa/router';
import { z } from 'zod';
import { validationOf } from '../http/validate.ts';
import { API_VERSIONS } from '../http/publicApi.ts';
import type { AppRouters } from '../http/routers.ts';
import { OPERATION_SUMMARIES } from './summaries.ts';
import { RESPONSE_SCHEMAS, STREAM_CONTENT } from './responses.ts';
import { ADMIN_RESPONSE_SCHEMAS } from './adminResponses.ts';
import { errorComponents, errorResponsesOf, IDEMPOTENCY_KEY_PARAMETER, IDEMPOTENT } from './errorResponses.ts';
import { examplesOf, parameterExampleOf, requestExamplesOf, successExchanges, successStatusesOf } from './examples.ts';
import { GATEWAY_DESCRIPTION, GATEWAY_INTAKE, gatewayHeaderParameters, gatewayRequestBody } from './gateway.ts';
import { FALLBACK_TAGS, TAG_RULES, tagOfPath } from './tags.ts';

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
  /** One handler registered for several methods (the sync hook): listed once, these named in its description. */
  alsoAnswers?: string[];
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

/**
 * The method a layer is documented under (HEAD is implied by GET in koa-router and omitted). One
 * handler registered for several methods is one operation: listed once, under POST when it takes
 * POST, with the other methods it answers alike named in its description.
 */
export function documentedMethods(layerMethods: string[]): { methods: string[]; alsoAnswers: string[] } {
  const lower = layerMethods.map((m) => m.toLowerCase()).filter((m) => OPENAPI_METHODS.includes(m));
  if (lower.length <= 1) return { methods: lower, alsoAnswers: [] };
  const shown = lower.includes('post') ? 'post' : lower[0]!;
  // router.all() registers every verb Node knows.
  if (layerMethods.length > OPENAPI_METHODS.length + 1) return { methods: [shown], alsoAnswers: ['any'] };
  return { methods: [shown], alsoAnswers: lower.filter((m) => m !== shown) };
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
      const { methods, alsoAnswers } = documentedMethods(layer.methods);
      for (const method of methods) {
        entries.push({ area, method, path: toOpenApiPath(layer.path), paramNames, ...(alsoAnswers.length ? { alsoAnswers } : {}), ...(layer.name ? { name: layer.name } : {}), ...schemas });
      }
    }
  }
  return entries;
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  // 'input' for requests: what a client sends (defaults make fields optional); unrepresentable types become {}.
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete out.$schema;
  withoutSafeIntegerBounds(out);
  return io === 'input' ? withIntegerLimit(out) : out;
}

/**
 * zod writes `.int()` as an integer between ±(2^53 - 1); those bounds say nothing a reader needs
 * and a reference page shows the lower one as the example value, so they are left out.
 */
function withoutSafeIntegerBounds(node: unknown): void {
  if (node === null || typeof node !== 'object') return;
  const schema = node as JsonSchema;
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  for (const child of Object.values(schema)) withoutSafeIntegerBounds(child);
}

/** The list `limit` of a body or query (pagination.ts) as the integer it is. */
function withIntegerLimit(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties?.limit?.anyOf) properties.limit = PAGE_LIMIT;
  return schema;
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
  return Object.entries(properties).map(([name, property]) => ({ name, in: 'query', required: required.has(name), schema: property }));
}

/**
 * The list `limit` (pagination.ts): its schema takes a JSON number or the digits of a query
 * string, which a generator renders `number | (number | string)`; what it accepts is an integer.
 */
const PAGE_LIMIT: JsonSchema = { type: 'integer', minimum: 1, maximum: 100, default: 10 };

const AREA_SECURITY: Record<ApiArea, Record<string, string[]>[]> = {
  public: [{ ApiSecretKey: [] }],
  admin: [{ AdminToken: [] }],
  // No key: health, docs and the console are open; a sync hook's secret is in its URL and a
  // gateway delivery carries a signature, both checked by the route itself.
  root: [],
};

function operationId(entry: RouteEntry): string {
  const words = entry.path
    .replace('/api/public/channels/{channelId}/{version}', '/public')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1));
  return entry.method + words.join('');
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

/** The success answers, one per status the operation was recorded answering (200 when none was recorded). */
function successResponses(key: string): Record<string, unknown> {
  const other = NOT_JSON[key];
  if (other) return { [other.status ?? '200']: { description: other.description, ...(other.content ? { content: other.content } : {}) } };
  const known = ALL_RESPONSE_SCHEMAS[key];
  const schema = known ? jsonSchemaOf(known, 'output') : { $ref: '#/components/schemas/Success' };
  const statuses = successStatusesOf(key);
  const out: Record<string, unknown> = {};
  for (const status of statuses.length ? statuses : ['200']) {
    const exchanges = successExchanges(key, status);
    const content: Record<string, unknown> = { 'application/json': { schema, ...(exchanges.length ? { examples: examplesOf(exchanges) } : {}) } };
    if (key.endsWith('}/message')) Object.assign(content, STREAM_CONTENT);
    out[status] = { description: SUCCESS_WORDS[status] ?? 'Success', content };
  }
  return out;
}

const SUCCESS_WORDS: Record<string, string> = { '200': 'Success', '201': 'Created', '202': 'Accepted: stored, and done in the background' };

/** Summary: the table's line, else the route's name, else the method and path (the test forbids that last one). */
export function summaryOf(entry: Pick<RouteEntry, 'method' | 'path' | 'name'>): string {
  return OPERATION_SUMMARIES[`${entry.method} ${entry.path}`] ?? entry.name ?? `${entry.method.toUpperCase()} ${entry.path}`;
}

function requestBodyOf(entry: RouteEntry, key: string) {
  if (key === GATEWAY_INTAKE) return gatewayRequestBody();
  if (!entry.body) return undefined;
  const examples = requestExamplesOf(key)['application/json'];
  return { required: !acceptsEmpty(entry.body), content: { 'application/json': { schema: jsonSchemaOf(entry.body), ...(examples ? { examples } : {}) } } };
}

function descriptionOf(entry: RouteEntry, key: string): string | undefined {
  if (key === GATEWAY_INTAKE) return GATEWAY_DESCRIPTION;
  if (!entry.alsoAnswers) return undefined;
  if (entry.alsoAnswers[0] === 'any') return 'Answers any HTTP method alike.';
  return `Answers ${entry.alsoAnswers.map((m) => m.toUpperCase()).join(', ')} alike (one operation, listed once).`;
}

function operationOf(entry: RouteEntry) {
  const key = `${entry.method} ${entry.path}`;
  const params = entry.params ? jsonSchemaOf(entry.params) : undefined;
  const parameters = [
    ...entry.paramNames.map((n) => pathParameter(n, entry.area, params)),
    ...(entry.query ? queryParameters(entry.query).map((p) => withExample(p, typedExample(p.schema, parameterExampleOf(key, 'query', p.name)))) : []),
    ...(IDEMPOTENT.has(key) ? [IDEMPOTENCY_KEY_PARAMETER] : []),
    ...(key === GATEWAY_INTAKE ? gatewayHeaderParameters() : []),
  ];
  const description = descriptionOf(entry, key);
  const errors = errorResponsesOf({ ...entry, hasBody: Boolean(entry.body), hasQuery: Boolean(entry.query), hasParams: Boolean(entry.params) });
  const operation: Record<string, unknown> = {
    operationId: operationId(entry),
    summary: summaryOf(entry),
    tags: [tagOfPath(entry.path, entry.area)],
    ...(description ? { description } : {}),
    ...(entry.alsoAnswers ? { 'x-relay-methods': [entry.method, ...entry.alsoAnswers] } : {}),
    parameters,
    responses: { ...successResponses(key), ...errors },
  };
  const requestBody = requestBodyOf(entry, key);
  if (requestBody) operation.requestBody = requestBody;
  operation.security = AREA_SECURITY[entry.area];
  return operation;
}

const withExample = <T extends object>(parameter: T, example: unknown) => (example === undefined ? parameter : { ...parameter, example });

/** A query string's value as its schema types it: `limit=10` is the integer 10. */
const typedExample = (schema: JsonSchema, value: string | undefined): unknown =>
  value !== undefined && (schema.type === 'integer' || schema.type === 'number') && /^\d+$/.test(value) ? Number(value) : value;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, any>>;
  components: Record<string, unknown>;
  [key: string]: unknown;
}

export function buildOpenApi(routers: AppRouters, info: { version: string; serverUrl?: string }): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  // Statuses whose schema is used, and those whose shared answer is (components list only those).
  const errorStatuses = new Set<string>();
  const sharedStatuses = new Set<string>();
  let usesSuccess = false;
  const tagsUsed = new Set<string>();
  for (const entry of listRoutes(routers)) {
    const operation = operationOf(entry);
    paths[entry.path] ??= {};
    paths[entry.path]![entry.method] = operation;
    for (const [status, response] of Object.entries(operation.responses as Record<string, { $ref?: string }>)) {
      if (Number(status) >= 400) (response.$ref ? sharedStatuses : errorStatuses).add(status);
    }
    if (JSON.stringify(operation.responses).includes('#/components/schemas/Success')) usesSuccess = true;
    tagsUsed.add((operation.tags as string[])[0]!);
  }
  const errors = errorComponents([...errorStatuses, ...sharedStatuses], sharedStatuses);
  const fallbackTags = Object.values(FALLBACK_TAGS).filter((name) => tagsUsed.has(name)).map((name) => ({ name, description: 'Routes of a module no domain tag names yet.' }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Relay',
      version: info.version,
      description:
        'The Bot Service API (public, versions 1.0 and 2.0, authenticated with a channel key in `X-API-Secret-Key`), the admin API (`Authorization: Bearer $ADMIN_TOKEN`) and the root routes (health, sync hooks, the gateway). ' +
        'Generated from the routes the server registers and the zod schemas it validates requests with; every example is a real request and answer recorded by the test suite.',
    },
    // Relative unless PUBLIC_BASE_URL says where the service lives: the page then calls the server it came from.
    servers: [{ url: info.serverUrl ?? '/', description: info.serverUrl ? 'This service' : 'The server this document came from' }],
    tags: [...TAG_RULES.filter((rule) => tagsUsed.has(rule.name)).map(({ name, description }) => ({ name, description })), ...fallbackTags],
    paths,
    components: {
      securitySchemes: {
        ApiSecretKey: { type: 'apiKey', in: 'header', name: 'X-API-Secret-Key' },
        AdminToken: { type: 'http', scheme: 'bearer' },
      },
      schemas: {
        ...(usesSuccess ? { Success: { type: 'object', required: ['success'], properties: { success: { const: true } }, additionalProperties: true } } : {}),
        ...errors.schemas,
      },
      responses: errors.responses,
    },
  };
}
