// The list and get requests whose p99 bench/scale.ts bounds, for one tenant, and the statistics it
// reads from their samples.
import type { RelayClient } from '../../src/client/index.ts';
import { percentile } from './load.ts';

export type Probe = [name: string, request: () => Promise<unknown>];

export interface ProbeTarget {
  botId: string;
  dataSourceId: string;
  /** The source's row ids in page order: the middle and near-last ones are the cursors. */
  rowIds: string[];
  conversationId: string;
  webhookId?: string;
}

/** `admin(path)` GETs `/api/admin<path>` and fails on an error answer. */
export function endpointProbes(api: RelayClient, admin: (path: string) => Promise<unknown>, t: ProbeTarget): Probe[] {
  const middle = t.rowIds[Math.floor(t.rowIds.length / 2)]!;
  const nearEnd = t.rowIds[Math.max(0, t.rowIds.length - 51)]!;
  const list: Probe[] = [
    ['rows: first page', () => api.rows.list(t.dataSourceId, { limit: 100 })],
    ['rows: middle page', () => api.rows.list(t.dataSourceId, { limit: 100, cursor: middle })],
    ['rows: last page', () => api.rows.list(t.dataSourceId, { limit: 100, cursor: nearEnd })],
    ['rows: get', () => api.rows.get(t.dataSourceId, middle)],
    ['data sources: get', () => api.dataSources.get(t.dataSourceId)],
    ['data sources: list', () => api.dataSources.list({ limit: 10 })],
    ['conversations: page', () => api.chat.listConversations({ limit: 100 })],
    ['messages: page', () => api.chat.listMessages(t.conversationId, { limit: 100 })],
    ['inbox (admin, Open)', () => admin(`/bots/${t.botId}/conversations?state=Open&limit=100`)],
  ];
  if (t.webhookId) list.push(['webhook delivery log (admin)', () => admin(`/bots/${t.botId}/webhooks/${t.webhookId}/deliveries?limit=100`)]);
  return list;
}

/** The ms of `times` sequential calls of one request, in call order. */
export async function timeSamples(request: () => Promise<unknown>, times: number): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await request();
    ms.push(performance.now() - started);
  }
  return ms;
}

/** p50 and p99 of samples in ms. */
export function summarize(ms: number[]): { p50: number; p99: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/**
 * A 90 % bootstrap interval of p99(a) / p99(b): both sample sets resampled with replacement, 2,000
 * times. With 100 samples a p99 is the worst one or two, so a ratio's scatter is wide; the
 * interval says whether a ratio above a goal is more than that scatter.
 */
export function p99RatioInterval(a: number[], b: number[], rounds = 2_000): [number, number] {
  const resampledP99 = (xs: number[]) => {
    const draw = Array.from({ length: xs.length }, () => xs[Math.floor(Math.random() * xs.length)]!).sort((x, y) => x - y);
    return percentile(draw, 99);
  };
  const ratios = Array.from({ length: rounds }, () => resampledP99(a) / resampledP99(b)).sort((x, y) => x - y);
  return [percentile(ratios, 5), percentile(ratios, 95)];
}
