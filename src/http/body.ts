// JSON body parsing for every route except those that read raw bytes themselves (the gateway).
// Oversized bodies give 413, broken JSON 400, and nesting deeper than JSON_MAX_DEPTH 400
// before any service, template or JSONata expression sees the value.
import type { Context, Next } from 'koa';
import { koaBody, HttpMethodEnum } from 'koa-body';
import { AppError } from './errors.ts';

export function jsonDepthExceeds(value: unknown, maxDepth: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > maxDepth) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
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
    if (parsed && jsonDepthExceeds(ctx.request.body, opts.maxDepth)) {
      throw new AppError('json_too_deep', `Request body is nested deeper than ${opts.maxDepth} levels`);
    }
    return next();
  };
}
