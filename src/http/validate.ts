// Request validation at the edge: a zod schema per route; the first issue becomes a 400.
import type { Context, Next } from 'koa';
import { z } from 'zod';
import { AppError } from './errors.ts';

type Source = 'body' | 'query' | 'params';

const VALIDATION = Symbol.for('relay.validation');

export function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.join('.') : 'body';
  return `${where}: ${issue.message}`;
}

/** Parses `value` with `schema` or throws a 400 AppError naming the first problem. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError('validation_failed', describeIssue(result.error.issues[0]!));
  return result.data;
}

/**
 * Koa middleware form: the parsed value lands on ctx.state.input. The schema rides on the
 * middleware (`validationOf`) so the OpenAPI document is generated from what the code validates.
 */
export function validate<S extends z.ZodType>(schema: S, source: Source = 'body') {
  async function validateInput(ctx: Context, next: Next) {
    const raw =
      source === 'body' ? (ctx.request.body ?? {}) : source === 'query' ? ctx.query : (ctx as unknown as { params: unknown }).params;
    ctx.state.input = parseInput(schema, raw);
    return next();
  }
  return Object.assign(validateInput, { [VALIDATION]: { schema, source } });
}

export function validationOf(middleware: unknown): { schema: z.ZodType; source: Source } | undefined {
  return (middleware as Record<symbol, { schema: z.ZodType; source: Source }> | undefined)?.[VALIDATION];
}

/**
 * No query parameter name may look like an operator or a nested key (`id[$ne]=x`, `$where=...`):
 * our API has no such parameters, and refusing them at the edge keeps a future switch to a
 * nesting query parser (qs) from turning them into filter objects (NoSQL injection, issue 7).
 */
export async function refuseOperatorQueryKeys(ctx: Context, next: Next) {
  for (const name of Object.keys(ctx.query)) {
    if (/[$[\]]/.test(name)) throw new AppError('bad_request', 'Query parameter names may not contain $, [ or ]');
  }
  return next();
}

/**
 * A key a client may choose that is stored as a field name: no leading `$` (an operator), no dot
 * (a path) and no NUL (BSON ends names at it and the driver refuses them, F3 of issue 21).
 */
export const isStorableKey = (key: string): boolean => key.length > 0 && key.length <= 100 && !key.startsWith('$') && !key.includes('.') && !key.includes('\0');

/** Field helpers shared by the public API schemas. */
export const uuid = (name: string) =>
  z.string({ error: `${name} is required and must be a string` }).uuid({ error: `${name} must be a valid UUID` });
