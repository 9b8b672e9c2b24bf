// The schemes by name (GATEWAY_CONFIG `sources.<name>.scheme`, default `relay`).
import { githubScheme } from './github.ts';
import { hmacScheme } from './hmac.ts';
import { relayScheme } from './relay.ts';
import { standardWebhooksScheme } from './standardWebhooks.ts';
import { stripeScheme } from './stripe.ts';
import type { Scheme, SchemeName } from './types.ts';

export const schemes: Record<SchemeName, Scheme> = {
  relay: relayScheme,
  'standard-webhooks': standardWebhooksScheme,
  github: githubScheme,
  stripe: stripeScheme,
  hmac: hmacScheme,
};
