// JSON body parsing for every route except those that read raw bytes themselves (the gateway).
// Oversized bodies give 413, broken JSON 400, and nesting deeper than JSON_MAX_DEPTH or a prototype
// key 400 before any service, template or JSONata expression sees the value.
import type { Context, Next } from 'koa';
import { koaBody, HttpMethodEnum } from 'koa-body';
import { AppError } from './errors.ts';

/**
 * One walk for the two shapes refused in every parsed body: nesting deeper than `maxDepth`, and a
 * key that names a prototype: `__proto__`, or `constructor` holding `prototype`, at any depth
 * (JSON.parse keeps them as plain own keys, but a merge, a template or a library that copies them
 * would reach Object.prototype). Shared by the API's body parser and the gateway (issue 35, P1/G2).
 */
function inspectJson(value: unknown, maxDepth: number): 'too_deep' | 'prototype_key' | null {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > maxDepth) return 'too_deep';
    for (const [key, child] of Object.entries(node)) {
      if (key === '__proto__') return 'prototype_key';
      if (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype')) return 'prototype_key';
      stack.push([child, depth + 1]);
    }
  }
  return null;
}

/** Throws the API's 400 for a body nested too deep or carrying a prototype key. */
export function refuseUnsafeJson(value: unknown, maxDepth: number): void {
  const found = inspectJson(value, maxDepth);
  if (found === 'too_deep') throw new AppError('json_too_deep', `Request body is nested deeper than ${maxDepth} levels`);
  if (found === 'prototype_key') throw new AppError('invalid_json', 'Request body has a __proto__ or constructor.prototype key');
}

const PARSED_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function carriesBody(ctx: Context): boolean {
  const length = ctx.request.length;
  return length !== undefined ? length > 0 : ctx.get('transfer-encoding') !== '';
}

export function jsonBody(opts: { limit: string; maxDepth: number; skip?: (ctx: Context) => boolean }) {
  const parse = koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: opts.limit,
    urlencoded: false,
    text: false,
    multipart: false,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
  });
  return async function parseJsonBody(ctx: Context, next: Next) {
    if (opts.skip?.(ctx)) return next();
    // A body in another format would be left unparsed and fail validation as a missing field;
    // say what is wrong instead. An empty body needs no Content-Type (a bare POST is fine).
    if (PARSED_METHODS.has(ctx.method) && carriesBody(ctx) && !ctx.is('json', '+json')) {
      throw new AppError('unsupported_media_type', 'Content-Type must be application/json');
    }
    let parsed = false;
    try {
      await parse(ctx, async () => {
        parsed = true;
      });
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (status === 413) throw new AppError('payload_too_large', 'Request body is too large');
      if (status === 415) throw new AppError('unsupported_media_type', 'Content-Type must be application/json');
      throw new AppError('invalid_json', 'Request body is not valid JSON');
    }
    if (parsed) refuseUnsafeJson(ctx.request.body, opts.maxDepth);
    return next();
  };
}
