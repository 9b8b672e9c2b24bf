// The shape of a recorded exchange (recordedExamples.ts, written by test/openapi/examples.test.ts).

/** One request and its answer, as the recording test saw them. */
export interface RecordedExchange {
  /** What the example shows, e.g. "A new delivery" (unique within the operation). */
  summary: string;
  status: number;
  request?: {
    /** The Content-Type sent, when not application/json. */
    contentType?: string;
    /** Headers the operation documents (signatures, Idempotency-Key); never the API key or admin token. */
    headers?: Record<string, string>;
    query?: Record<string, string>;
    /** The JSON sent, or the exact text for another content type. */
    body?: unknown;
  };
  /** The JSON answer. */
  response: unknown;
}

/** Keyed by operation, `method path` as the document spells it (`post /api/admin/bots`). */
export type RecordedExamples = Record<string, RecordedExchange[]>;
