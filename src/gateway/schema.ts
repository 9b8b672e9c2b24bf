// Request schemas of the gateway's admin routes.
import { z } from 'zod';
import { PageQuerySchema } from '../http/pagination.ts';
import { uuid } from '../http/validate.ts';

export const DeliveryListQuerySchema = PageQuerySchema.extend({
  source: z.string().max(64).optional(),
  event: z.string().max(100).optional(),
});
export type DeliveryListQuery = z.infer<typeof DeliveryListQuerySchema>;

export const DeliveryParamsSchema = z.object({ id: uuid('id') });
