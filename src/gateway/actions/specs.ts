// What an action looks like once its expressions are evaluated: the "spec" stored on the action
// outcome and run by the action job. Checking it here turns a bad expression result (an address
// that is not an email, a URL that is not http) into a recorded planning error, not a retry loop.
import { z } from 'zod';
import { HTTP_METHODS, type ActionDefinition } from '../rules/format.ts';

const addresses = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((a) => a.trim()).filter(Boolean))
  .pipe(z.array(z.email('is not an email address')).min(1, 'needs at least one address').max(50));

const optionalAddresses = addresses.nullish().transform((v) => v ?? []);
const text = (what: string) => z.unknown().transform((v) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v))).pipe(z.string().max(1_000_000, `${what} is too long`));

export const EmailSpecSchema = z.object({
  to: addresses,
  cc: optionalAddresses,
  bcc: optionalAddresses,
  replyTo: z.email().nullish(),
  from: z.string().min(1).nullish(),
  subject: text('subject').pipe(z.string().min(1, 'subject is empty').max(998)),
  text: text('text'),
  html: z.string().nullish(),
});

const scalar = z.union([z.string(), z.number(), z.boolean()]).transform(String);

export const HttpSpecSchema = z.object({
  method: z.enum(HTTP_METHODS),
  url: z.string().url().refine((u) => /^https?:\/\//i.test(u), 'url must be http or https'),
  headers: z.record(z.string(), scalar),
  body: z.string().nullable(),
});

export const ResyncSpecSchema = z.object({
  dataSource: z.string().nullable(),
  dataSourceId: z.string().uuid('dataSourceId must be a UUID').nullable(),
  /** How the target was chosen: an id expression, the rule's name map, or the list of sync_error sources. */
  via: z.enum(['id', 'map', 'state']),
});

export const LogSpecSchema = z.object({ level: z.enum(['info', 'warn']), message: text('message') });

export type EmailSpec = z.infer<typeof EmailSpecSchema>;
export type HttpSpec = z.infer<typeof HttpSpecSchema>;
export type ResyncSpec = z.infer<typeof ResyncSpecSchema>;
export type LogSpec = z.infer<typeof LogSpecSchema>;
export type ActionSpec = EmailSpec | HttpSpec | ResyncSpec | LogSpec;

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new Error(`${issue.path.join('.') || 'action'}: ${issue.message}`);
  }
  return result.data;
}

/** Builds and checks the spec from the action's definition and its evaluated fields. */
export function resolveSpec(definition: ActionDefinition, values: Record<string, unknown>): ActionSpec {
  switch (definition.type) {
    case 'email':
      return parse(EmailSpecSchema, values);
    case 'http': {
      const headers: Record<string, unknown> = {};
      for (const name of Object.keys(definition.headers)) headers[name] = values[`headers.${name}`];
      const raw = values.body;
      const body = raw === undefined || raw === null ? null : typeof raw === 'string' ? raw : JSON.stringify(raw);
      const hasType = Object.keys(headers).some((h) => h.toLowerCase() === 'content-type');
      if (body !== null && typeof raw !== 'string' && !hasType) headers['Content-Type'] = 'application/json';
      return parse(HttpSpecSchema, { method: definition.method, url: values.url, headers, body });
    }
    case 'resync': {
      const name = typeof values.dataSource === 'string' ? values.dataSource : null;
      const id = values.dataSourceId;
      if (id !== undefined && id !== null) return parse(ResyncSpecSchema, { dataSource: name, dataSourceId: id, via: 'id' });
      const mapped = name !== null ? definition.map[name] : undefined;
      if (mapped) return parse(ResyncSpecSchema, { dataSource: name, dataSourceId: mapped, via: 'map' });
      return parse(ResyncSpecSchema, { dataSource: name, dataSourceId: null, via: 'state' });
    }
    case 'log':
      return parse(LogSpecSchema, { level: definition.level, message: values.message });
  }
}
