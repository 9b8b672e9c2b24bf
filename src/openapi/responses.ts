// Response bodies of the public API (spec "Resources and their fields") as zod schemas. The OpenAPI
// document shows them, and test/openapi/document.test.ts parses real responses with them, so the
// document and the presenters cannot drift apart. The admin API's are in adminResponses.ts.
import { z } from 'zod';
import { SYNC_INTERVALS, SYNC_STATES } from '../datasources/model.ts';
import { MESSAGE_ROLES } from '../chat/model.ts';

export const isoOrNull = z.string().datetime().nullable();
/** `{ success: true, ...shape }`, strict: a field the presenter adds and the schema lacks fails the test. */
export const ok = <T extends z.ZodRawShape>(shape: T) => z.strictObject({ success: z.literal(true), ...shape });
export const Pagination = z.strictObject({ total: z.number().int(), last: z.string().nullable() });
/** The admin delivery lists count up to DELIVERY_LIST_TOTAL_LIMIT: `totalCapped` says more exist than `total`. */
export const CappedPagination = Pagination.extend({ totalCapped: z.boolean() });

export const DataSourceBody = z.strictObject({
  id: z.string(),
  type: z.literal('MANUAL'),
  state: z.enum(SYNC_STATES),
  lastSync: isoOrNull,
  syncInterval: z.enum(SYNC_INTERVALS).nullable(),
  createdAt: isoOrNull,
});
const RowBody = z.strictObject({
  id: z.string(),
  name: z.string(),
  content: z.string(),
  type: z.literal('MANUAL'),
  state: z.enum(SYNC_STATES),
  lastSync: isoOrNull,
  lastModified: isoOrNull,
  createdAt: isoOrNull,
});
const Source = z.strictObject({ rowId: z.string(), dataSourceId: z.string() });

/** `{ success: true }` and nothing else: the answer of writes the spec gives no body for. */
export const Done = ok({});
export const DataSourceAnswer = ok({ dataSource: DataSourceBody });
export const DataSourceListAnswer = ok({ dataSources: z.array(DataSourceBody), pagination: Pagination });
export const RowListAnswer = ok({ dataSourceRows: z.array(z.strictObject({ id: z.string(), name: z.string() })), pagination: Pagination });
export const RowAnswer = ok({ dataSourceRow: RowBody });
export const ConversationStartAnswer = ok({ conversationId: z.string(), response: z.string() });
export const MessageAnswer = ok({ conversationId: z.string(), response: z.string(), sources: z.array(Source), handledBy: z.literal('agent').optional() });
export const ConversationListAnswer = ok({
  conversations: z.array(z.strictObject({ id: z.string(), createdAt: z.string().datetime(), initialMessage: z.string().nullable() })),
  pagination: Pagination,
});
export const MessageListAnswer = ok({
  messages: z.array(z.strictObject({ id: z.string(), message: z.string(), role: z.enum(MESSAGE_ROLES), createdAt: z.string().datetime() })),
  pagination: Pagination,
});

const P = '/api/public/channels/{channelId}/{version}';

/** The success body of each public operation, keyed like OPERATION_SUMMARIES. */
export const RESPONSE_SCHEMAS: Record<string, z.ZodType> = {
  [`post ${P}/data-sources`]: DataSourceAnswer,
  [`post ${P}/data-sources/list`]: DataSourceListAnswer,
  [`get ${P}/data-sources`]: DataSourceAnswer,
  [`put ${P}/data-sources`]: DataSourceAnswer,
  [`delete ${P}/data-sources`]: Done,
  [`post ${P}/data-sources/sync`]: Done,
  [`post ${P}/data-sources/row`]: Done,
  [`post ${P}/data-sources/row/list`]: RowListAnswer,
  [`get ${P}/data-sources/row`]: RowAnswer,
  [`put ${P}/data-sources/row`]: Done,
  [`delete ${P}/data-sources/row`]: Done,
  [`post ${P}/conversation`]: ConversationStartAnswer,
  [`post ${P}/message`]: MessageAnswer,
  [`post ${P}/conversations`]: ConversationListAnswer,
  [`post ${P}/messages`]: MessageListAnswer,
};

/** POST …/message with `stream: true`: the body depends on the version in the path. */
export const STREAM_CONTENT = {
  'text/event-stream': {
    schema: {
      type: 'string',
      description:
        'Version 2.0 with `stream: true`: Server-Sent Events, one UI message stream chunk per `data:` line (start, text-delta, tool and data-* parts, finish), then `data: [DONE]`. Readable with the `ai` SDK (readUIMessageStream, DefaultChatTransport).',
    },
  },
  'application/x-ndjson': {
    schema: { type: 'string', description: 'Version 1.0 (deprecated) with `stream: true`: newline-delimited JSON, one chat completion chunk per line.' },
  },
};
