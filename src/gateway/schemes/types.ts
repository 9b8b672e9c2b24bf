// One interface for every signature scheme a gateway source can name (docs/GATEWAY.md, "Schemes"):
// authenticate the exact raw bytes and headers (before any parsing), then identify the delivery
// from what was authenticated and the parsed body. A refusal is an AppError: `invalid_signature`
// or, for a signed time outside the source's tolerance, `signature_expired` (both 401).
import type { IncomingHttpHeaders } from 'node:http';
import type { CompiledExpression } from '../rules/expression.ts';
import type { HmacAlgorithm } from './common.ts';

/** Which facts of a delivery rest on a signature (rules read this as `signed`, docs/RULES.md). */
export interface SignedFacts {
  deliveryId: boolean;
  event: boolean;
  test: boolean;
}

/** The generic `hmac` scheme's settings (hmac.ts), as sources.ts parses them. */
export interface HmacOptions {
  header: string;
  algorithm: HmacAlgorithm;
  encoding: 'hex' | 'base64';
  prefix: string;
  timestampHeader: string | null;
  timestampSeparator: string;
  idHeader: string | null;
  idPath: CompiledExpression | null;
  eventHeader: string | null;
  eventPath: CompiledExpression | null;
}

/** What a scheme reads of its gateway source (sources.ts's Source holds these and more). */
export interface SchemeSource {
  name: string;
  secrets: string[];
  toleranceSeconds: number;
  /** Set for the `hmac` scheme only. */
  hmac: HmacOptions | null;
  allowLegacySecretHeader: boolean;
}

export interface SchemeRequest {
  source: SchemeSource;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  now: Date;
}

/** What authentication established; a scheme may also carry signed facts it read on the way. */
export interface Authentication {
  /** The body is covered by a signature (not so with the legacy shared-secret header). */
  bodySigned: boolean;
  /** Relay only: X-Relay-Signature covered the id, event and test headers. */
  factsSigned: boolean;
  /** A delivery id covered by the signature (standard-webhooks' webhook-id). */
  signedId?: string;
}

export interface Identity {
  deliveryId: string;
  event: string;
  test: boolean;
  signed: SignedFacts;
}

export interface Scheme {
  authenticate(req: SchemeRequest): Authentication;
  identify(req: SchemeRequest, payload: Record<string, unknown>, auth: Authentication): Identity | Promise<Identity>;
}

export const SCHEME_NAMES = ['relay', 'standard-webhooks', 'github', 'stripe', 'hmac'] as const;
export type SchemeName = (typeof SCHEME_NAMES)[number];
