// One error type for the whole service, and the closed set of codes it may carry.
// The edge turns an AppError into the spec's `{ success: false, ... }` body (see errorMiddleware).

export const ERROR_STATUS = {
  bad_request: 400,
  validation_failed: 400,
  invalid_json: 400,
  invalid_cursor: 400,
  json_too_deep: 400,
  unauthorized: 401,
  invalid_signature: 401,
  signature_expired: 401,
  forbidden: 403,
  not_found: 404,
  channel_not_found: 404,
  data_source_not_found: 404,
  data_source_row_not_found: 404,
  conversation_not_found: 404,
  webhook_not_found: 404,
  hook_not_found: 404,
  hook_disabled: 403,
  team_not_found: 404,
  bot_not_found: 404,
  delivery_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_key_in_use: 409,
  idempotency_key_reused: 422,
  unsupported_media_type: 415,
  payload_too_large: 413,
  data_source_limit_reached: 429,
  already_syncing: 429,
  storage_tokens_exhausted: 429,
  token_limit_reached: 429,
  message_too_long: 429,
  rate_limited: 429,
  row_save_failed: 500,
  internal_error: 500,
  not_implemented: 501,
  upstream_error: 502,
  database_unavailable: 503,
  request_timeout: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (code: ErrorCode & `${string}not_found`, what: string) => new AppError(code, `${what} not found`);
