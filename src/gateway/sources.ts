// The gateway's configuration, the JSON file named by GATEWAY_CONFIG: its senders ("sources") with
// the secrets each signs with (several at once, for rotation), whether the legacy X-Secret-Key
// header is accepted, the public API a resync action calls; and `vars` for rule expressions.
// See docs/GATEWAY.md.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { compileExpression, type CompiledExpression } from './rules/expression.ts';
import { standardWebhooksKey } from '../security/signature.ts';
import { SCHEME_NAMES, type HmacOptions, type SchemeName } from './schemes/types.ts';
import { HmacSchema, type HmacConfig } from './schemes/hmacConfig.ts';

const SECRET_REF = /^(env|file):(.+)$/;

/** How far a signed time may be from ours unless a source says otherwise (Stripe's and Standard Webhooks' default). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const secretRef = z.string().min(1, 'a secret must not be empty');

const ApiSchema = z.object({
  baseUrl: z.string().url(),
  channelId: z.string().uuid(),
  secretKey: secretRef,
  version: z.enum(['1.0', '2.0']).default('2.0'),
});

const SourceSchema = z.object({
  /** How deliveries are signed (docs/GATEWAY.md, "Schemes"). */
  scheme: z.enum(SCHEME_NAMES).default('relay'),
  secrets: z.array(secretRef).min(1, 'at least one secret is required'),
  /** How far a signed time may be from ours, either way (every scheme that signs one). */
  toleranceSeconds: z.number().int().min(1).max(7 * 24 * 3600).default(DEFAULT_TOLERANCE_SECONDS),
  hmac: HmacSchema.optional(),
  allowLegacySecretHeader: z.boolean().default(false),
  /** Largest accepted body, bytes (default 1 MiB). */
  maxBodyBytes: z.number().int().min(1).max(16 * 1024 * 1024).default(1024 * 1024),
  api: ApiSchema.optional(),
  resync: z.object({ maxAttemptsPerHour: z.number().int().min(0).default(3) }).default({ maxAttemptsPerHour: 3 }),
});

const SOURCE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const GatewayConfigSchema = z.object({
  sources: z.record(z.string().regex(SOURCE_NAME, 'source names are lower case letters, digits, - and _'), SourceSchema),
  /** Values rule expressions read as `vars.<name>` (URLs, addresses, tokens); references allowed. */
  vars: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'var names are identifiers'), z.string()).default({}),
});

export interface SourceApi {
  baseUrl: string;
  channelId: string;
  secretKey: string;
  version: '1.0' | '2.0';
}

export interface Source {
  name: string;
  scheme: SchemeName;
  secrets: string[];
  toleranceSeconds: number;
  /** Set for the `hmac` scheme only. */
  hmac: HmacOptions | null;
  allowLegacySecretHeader: boolean;
  maxBodyBytes: number;
  api: SourceApi | null;
  resync: { maxAttemptsPerHour: number };
}

export interface GatewayConfig {
  sources: Map<string, Source>;
  vars: Record<string, string>;
}

export class GatewayConfigError extends Error {}

/** Resolves `env:GATEWAY_SECRET_X` and `file:/path` references; anything else is the secret itself. */
function resolveSecret(value: string, where: string, env: Record<string, string>): string {
  const ref = SECRET_REF.exec(value);
  if (!ref) return value;
  const [, kind, name] = ref;
  if (kind === 'env') {
    // Only GATEWAY_SECRET_* variables are reachable, so a config file cannot pull in ADMIN_TOKEN & co.
    if (!name!.startsWith('GATEWAY_SECRET_')) throw new GatewayConfigError(`${where}: env references must name a GATEWAY_SECRET_* variable`);
    const secret = env[name!];
    if (!secret) throw new GatewayConfigError(`${where}: environment variable ${name} is not set`);
    return secret;
  }
  try {
    const secret = readFileSync(name!, 'utf8').trim();
    if (!secret) throw new GatewayConfigError(`${where}: file ${name} is empty`);
    return secret;
  } catch (err) {
    if (err instanceof GatewayConfigError) throw err;
    throw new GatewayConfigError(`${where}: cannot read secret file ${name}`);
  }
}

/** What a scheme needs of a source, checked at load so a bad file names the field. */
function checkScheme(name: string, s: z.infer<typeof SourceSchema>, secrets: string[]): void {
  const where = `sources.${name}`;
  if (s.scheme === 'hmac' && !s.hmac) throw new GatewayConfigError(`${where}.hmac: the hmac scheme needs its options (header at least)`);
  if (s.scheme !== 'hmac' && s.hmac) throw new GatewayConfigError(`${where}.hmac: only the hmac scheme takes these options`);
  if (s.scheme !== 'relay' && s.allowLegacySecretHeader) throw new GatewayConfigError(`${where}.allowLegacySecretHeader: only the relay scheme has a legacy header`);
  if (s.scheme === 'standard-webhooks') {
    secrets.forEach((secret, i) => {
      if (standardWebhooksKey(secret).length < 16) throw new GatewayConfigError(`${where}.secrets.${i}: a standard-webhooks secret is whsec_ followed by base64 of at least 16 bytes`);
    });
  }
}

function compilePath(text: string | undefined, where: string): CompiledExpression | null {
  if (text === undefined) return null;
  try {
    return compileExpression(text);
  } catch (err) {
    throw new GatewayConfigError(`${where}: ${(err as Error).message}`);
  }
}

function hmacOptions(name: string, h: HmacConfig): HmacOptions {
  return {
    header: h.header,
    algorithm: h.algorithm,
    encoding: h.encoding,
    prefix: h.prefix,
    timestampHeader: h.timestampHeader ?? null,
    timestampSeparator: h.timestampSeparator,
    idHeader: h.idHeader ?? null,
    idPath: compilePath(h.idPath, `sources.${name}.hmac.idPath`),
    eventHeader: h.eventHeader ?? null,
    eventPath: compilePath(h.eventPath, `sources.${name}.hmac.eventPath`),
  };
}

export function parseGatewayConfig(json: unknown, env: Record<string, string>): GatewayConfig {
  const parsed = GatewayConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new GatewayConfigError(`${issue.path.join('.') || 'config'}: ${issue.message}`);
  }
  const sources = new Map<string, Source>();
  for (const [name, s] of Object.entries(parsed.data.sources)) {
    const secrets = s.secrets.map((v, i) => resolveSecret(v, `sources.${name}.secrets.${i}`, env));
    const api = s.api ? { ...s.api, secretKey: resolveSecret(s.api.secretKey, `sources.${name}.api.secretKey`, env) } : null;
    checkScheme(name, s, secrets);
    sources.set(name, {
      name,
      scheme: s.scheme,
      secrets,
      toleranceSeconds: s.toleranceSeconds,
      hmac: s.hmac ? hmacOptions(name, s.hmac) : null,
      allowLegacySecretHeader: s.allowLegacySecretHeader,
      maxBodyBytes: s.maxBodyBytes,
      api,
      resync: s.resync,
    });
  }
  const vars = Object.fromEntries(Object.entries(parsed.data.vars).map(([k, v]) => [k, resolveSecret(v, `vars.${k}`, env)]));
  return { sources, vars };
}

/** Reads GATEWAY_CONFIG; no file configured means no sources (every intake is 404). */
export function loadGatewayConfig(file: string | undefined, env: Record<string, string>): GatewayConfig {
  if (!file) return { sources: new Map(), vars: {} };
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new GatewayConfigError(`GATEWAY_CONFIG ${file}: ${(err as Error).message}`);
  }
  try {
    return parseGatewayConfig(json, env);
  } catch (err) {
    throw new GatewayConfigError(`GATEWAY_CONFIG ${file}: ${(err as Error).message}`);
  }
}
