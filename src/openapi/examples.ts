// Examples in the OpenAPI document come from real exchanges only: test/openapi/examples.test.ts
// calls every operation against the real app (FerretDB, a real HTTP sink, signed gateway
// deliveries), writes what was sent and answered to recordedExamples.ts when asked to
// (OPENAPI_RECORD=1), and otherwise fails when the API no longer answers what is recorded there.
// The success statuses of the document are the recorded ones too.
import { RECORDED_EXAMPLES } from './recordedExamples.ts';
import type { RecordedExchange } from './exchange.ts';

export type { RecordedExchange, RecordedExamples } from './exchange.ts';

export const recordedExchanges = (key: string): RecordedExchange[] => RECORDED_EXAMPLES[key] ?? [];

/** The first recorded answer with this status, and the operation that gave it (not one of `except`, whose answers are their own). */
export function sharedErrorExchange(status: number, except: string[] = []): { operation: string; exchange: RecordedExchange } | undefined {
  for (const [operation, exchanges] of Object.entries(RECORDED_EXAMPLES)) {
    if (except.includes(operation)) continue;
    const exchange = exchanges.find((e) => e.status === status);
    if (exchange) return { operation, exchange };
  }
  return undefined;
}

/** An OpenAPI `examples` map key: the summary in lower camel case. */
function exampleKey(summary: string): string {
  const words = summary.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase())).join('') || 'example';
}

/** The answers of these exchanges as an OpenAPI `examples` map. */
export function examplesOf(exchanges: RecordedExchange[], note?: string): Record<string, { summary: string; value: unknown }> {
  return Object.fromEntries(exchanges.map((e) => [exampleKey(e.summary), { summary: note ? `${e.summary} (${note})` : e.summary, value: e.response }]));
}

/** The success statuses the operation was seen to answer, lowest first. */
export function successStatusesOf(key: string): string[] {
  return [...new Set(recordedExchanges(key).filter((e) => e.status < 300).map((e) => String(e.status)))].sort();
}

/** The successful exchanges with this status. */
export const successExchanges = (key: string, status: string) => recordedExchanges(key).filter((e) => String(e.status) === status);

const FORM = 'application/x-www-form-urlencoded';

/** The bodies sent on successful calls, grouped by content type, as `examples` maps. */
export function requestExamplesOf(key: string): Record<string, Record<string, { summary: string; value: unknown }>> {
  const byType: Record<string, Record<string, { summary: string; value: unknown }>> = {};
  for (const e of recordedExchanges(key)) {
    if (e.status >= 300 || e.request?.body === undefined) continue;
    const type = e.request.contentType ?? 'application/json';
    // A form is shown as its fields, as the schema of a form body describes it.
    const value = type === FORM ? Object.fromEntries(new URLSearchParams(String(e.request.body))) : e.request.body;
    byType[type] = { ...byType[type], [exampleKey(e.summary)]: { summary: e.summary, value } };
  }
  return byType;
}

/** A value sent in a query parameter or header on a successful call, for that parameter's `example`. */
export function parameterExampleOf(key: string, where: 'query' | 'headers', name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const e of recordedExchanges(key)) {
    if (e.status >= 300) continue;
    const values = e.request?.[where] ?? {};
    const found = Object.entries(values).find(([k]) => k.toLowerCase() === lower);
    if (found) return found[1];
  }
  return undefined;
}
