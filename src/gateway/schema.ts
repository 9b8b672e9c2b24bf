// Request schemas of the gateway's admin routes.
import { z } from 'zod';
import { PageOrderSchema, PageQuerySchema } from '../http/pagination.ts';
import { uuid } from '../http/validate.ts';

export const DeliveryListQuerySchema = PageQuerySchema.extend({
  source: z.string().max(64).optional(),
  event: z.string().max(100).optional(),
  /** The console reads newest first; scripts that follow the log as it grows keep the default. */
  order: PageOrderSchema,
});
export type DeliveryListQuery = z.infer<typeof DeliveryListQuerySchema>;

export const DeliveryParamsSchema = z.object({ id: uuid('id') });
