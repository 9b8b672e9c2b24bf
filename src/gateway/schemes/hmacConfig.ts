// The generic `hmac` scheme's settings as GATEWAY_CONFIG writes them (`sources.<name>.hmac`,
// docs/GATEWAY.md). Apart from sources.ts so `relay gateway send --scheme hmac` reads the same
// block without loading the rule engine that compiles idPath and eventPath.
import { z } from 'zod';

const headerName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'a header name').transform((h) => h.toLowerCase());

/** The generic `hmac` scheme (hmac.ts). */
export const HmacSchema = z
  .object({
    header: headerName,
    algorithm: z.enum(['sha1', 'sha256', 'sha512']).default('sha256'),
    encoding: z.enum(['hex', 'base64']).default('hex'),
    prefix: z.string().max(100).default(''),
    timestampHeader: headerName.optional(),
    timestampSeparator: z.string().max(10).default('.'),
    idHeader: headerName.optional(),
    idPath: z.string().min(1).optional(),
    eventHeader: headerName.optional(),
    eventPath: z.string().min(1).optional(),
  })
  .strict()
  .refine((h) => !(h.idHeader && h.idPath), 'idHeader and idPath exclude each other')
  .refine((h) => !(h.eventHeader && h.eventPath), 'eventHeader and eventPath exclude each other');

export type HmacConfig = z.infer<typeof HmacSchema>;
