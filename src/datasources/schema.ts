// Request shapes of the data-sources API (spec "Endpoints › Data sources") and its admin routes.
import { z } from 'zod';
import { uuid } from '../http/validate.ts';
import { PageQuerySchema } from '../http/pagination.ts';
import { SYNC_INTERVALS } from './model.ts';

/** Rows per add/update/delete request; bodies are capped by BODY_LIMIT as well. */
export const MAX_ROWS_PER_REQUEST = 1_000;

const rows = <T extends z.ZodType>(row: T) =>
  z
    .array(row, { error: 'dataSourceRows is required and must be an array' })
    .min(1, { error: 'dataSourceRows must hold at least one row' })
    .max(MAX_ROWS_PER_REQUEST, { error: `dataSourceRows may hold at most ${MAX_ROWS_PER_REQUEST} rows` });

const name = z.string({ error: 'name is required and must be a string' }).max(1_000, { error: 'name is at most 1000 characters' });
const content = z.string({ error: 'content is required and must be a string' });

export const DataSourceIdSchema = z.object({ dataSourceId: uuid('dataSourceId') });
export const DataSourceListSchema = PageQuerySchema;
export const SyncIntervalUpdateSchema = z.object({
  dataSourceId: uuid('dataSourceId'),
  syncInterval: z.enum(SYNC_INTERVALS, { error: 'syncInterval must be day, week, month or null' }).nullish().transform((v) => v ?? null),
});
export const RowsAddSchema = z.object({ dataSourceId: uuid('dataSourceId'), dataSourceRows: rows(z.object({ name, content })) });
export const RowsListSchema = PageQuerySchema.extend({ dataSourceId: uuid('dataSourceId') });
export const RowGetSchema = z.object({ dataSourceId: uuid('dataSourceId'), dataSourceRowId: uuid('dataSourceRowId') });
export const RowsUpdateSchema = z.object({
  dataSourceId: uuid('dataSourceId'),
  dataSourceRows: rows(z.object({ id: uuid('id'), name, content })),
});
export const RowsDeleteSchema = z.object({ dataSourceId: uuid('dataSourceId'), dataSourceRows: rows(z.object({ id: uuid('id') })) });

export type SyncIntervalUpdateReq = z.infer<typeof SyncIntervalUpdateSchema>;
export type RowsAddReq = z.infer<typeof RowsAddSchema>;
export type RowsUpdateReq = z.infer<typeof RowsUpdateSchema>;

// Admin API
export const BotParams = z.object({ botId: uuid('botId') });
export const BotDataSourceParams = z.object({ botId: uuid('botId'), dataSourceId: uuid('dataSourceId') });
export const BotHookParams = z.object({ botId: uuid('botId'), hookId: uuid('hookId') });
export const DataSourceRenameSchema = z.object({
  name: z.string({ error: 'name is required and must be a string' }).trim().min(1, { error: 'name must not be empty' }).max(200),
});
export const HookEnabledSchema = z.object({ enabled: z.boolean({ error: 'enabled is required and must be a boolean' }) });
