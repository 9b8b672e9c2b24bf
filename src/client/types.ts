// Wire types of the public API (spec "Resources and their fields"), as a client sees them.
// Kept apart from the server's models on purpose: the client only knows what crosses the wire.

export type ApiVersion = '1.0' | '2.0';
export type DataSourceState = 'not_synced' | 'syncing' | 'synced' | 'sync_error';
export type SyncInterval = 'day' | 'week' | 'month' | null;

export interface DataSource {
  id: string;
  type: 'MANUAL';
  state: DataSourceState;
  lastSync: string | null;
  syncInterval: SyncInterval;
  createdAt: string;
}

/** The page envelope of every list response. */
export interface Pagination {
  total: number;
  last: string | null;
}

export interface PageRequest {
  /** 1 to 100 (default 10 on the server). */
  limit?: number;
  /** The previous page's `pagination.last`; omit for the first page. */
  cursor?: string | null;
}

export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

/** What `iterate` walks through: page size only; the cursor is handled for you. */
export interface IterateOptions {
  /** 1 to 100, default 100. */
  pageSize?: number;
}

/** The row listing carries only `id` and `name` (spec "Data source row"). */
export interface DataSourceRowListItem {
  id: string;
  name: string;
}

export interface DataSourceRow extends DataSourceRowListItem {
  content: string;
  type: 'MANUAL';
  state: DataSourceState;
  lastSync: string | null;
  lastModified: string | null;
  createdAt: string;
}

export interface NewDataSourceRow {
  name: string;
  /** Markdown; this is what the bot learns. */
  content: string;
}

export interface DataSourceRowUpdate extends NewDataSourceRow {
  id: string;
}

export interface Conversation {
  id: string;
  createdAt: string;
  initialMessage: string | null;
}

export interface Message {
  id: string;
  message: string;
  /** `user`, `assistant`, `tool`, `agent`... (spec "Message"). */
  role: string;
  createdAt: string;
}

/** Not validated by the service, so not proof of identity (spec "Conversation"). */
export interface UserData {
  id?: string | number;
  name?: string;
  email?: string;
  tel?: string;
  [key: string]: string | number | boolean | null | undefined;
}

/** Per request, never saved (spec "Extra context object"). */
export interface ExtendContext {
  custom?: Record<string, string | number | boolean>;
  pageMeta?: { url: string; title?: string; description?: string; 'og:title'?: string; 'og:description'?: string };
  markdown?: string;
}

export interface ConversationStart {
  userData?: UserData;
  /** Only passed as `initialMessage` in the Conversation started webhook; the bot never sees it. */
  message?: string;
}

export interface ConversationStarted {
  conversationId: string;
  /** The bot's welcome message. */
  response: string;
}

export interface MessageRequest {
  message: string;
  conversationId?: string;
  extendSystemMessage?: string;
  overrideSystemMessage?: string;
  extendContext?: ExtendContext;
  userData?: UserData;
}

/** A row the reply drew on (docs/CHAT.md: our addition to the spec). */
export interface ReplySource {
  rowId: string;
  dataSourceId: string;
}

export interface MessageReply {
  conversationId: string;
  response: string;
  sources: ReplySource[];
  /** Present while a human agent holds the conversation; `response` is then empty. */
  handledBy?: 'agent';
}
