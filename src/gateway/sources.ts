// The gateway's configuration, the JSON file named by GATEWAY_CONFIG: its senders ("sources") with
// the secrets each signs with (several at once, for rotation), whether the legacy X-Secret-Key
// header is accepted, the public API a resync action calls; and `vars` for rule expressions.
// See docs/GATEWAY.md.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const SECRET_REF = /^(env|file):(.+)$/;

const secretRef = z.string().min(1, 'a secret must not be empty');

const ApiSchema = z.object({
  baseUrl: z.string().url(),
  channelId: z.string().uuid(),
  secretKey: secretRef,
  version: z.enum(['1.0', '2.0']).default('2.0'),
});

const SourceSchema = z.object({
  secrets: z.array(secretRef).min(1, 'at least one secret is required'),
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
  secrets: string[];
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
    sources.set(name, { name, secrets, allowLegacySecretHeader: s.allowLegacySecretHeader, maxBodyBytes: s.maxBodyBytes, api, resync: s.resync });
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
