// `resync`: starts syncs through the public API (src/client), never through the API's own code.
// A sync.failure payload names the data source but the API's data source object has no name, so
// the target is: an id from the rule, the rule's name → id map, or every source in `sync_error`.
// Each started sync is remembered in the result so a retry does not start it twice.
import { createRelayClient, RelayApiError, type RelayClient } from '../../client/index.ts';
import { failed, ok, type ActionContext, type ActionOutcomeReport } from './report.ts';
import { takeResyncAttempt } from './resyncAttempts.ts';
import type { ResyncSpec } from './specs.ts';

interface ResyncResult {
  [key: string]: unknown;
  targets: string[];
  started: string[];
  alreadySyncing: string[];
  capped: string[];
  notFound: string[];
  refused: Array<{ id: string; code: string }>;
}

async function targetsOf(spec: ResyncSpec, client: RelayClient): Promise<string[]> {
  if (spec.dataSourceId) return [spec.dataSourceId];
  const ids: string[] = [];
  for await (const ds of client.dataSources.iterate()) if (ds.state === 'sync_error') ids.push(ds.id);
  return ids;
}

const list = (previous: Record<string, unknown> | null, key: string): string[] => {
  const v = previous?.[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
};

export async function runResync(spec: ResyncSpec, ctx: ActionContext): Promise<ActionOutcomeReport> {
  const api = ctx.source?.api;
  if (!ctx.source || !api) return failed(`source ${ctx.delivery.source} has no "api" settings in GATEWAY_CONFIG`, false);
  const client = createRelayClient({ ...api, timeoutMs: ctx.config.OUTBOUND_TIMEOUT_MS });
  const result: ResyncResult = { targets: [], started: list(ctx.previous, 'started'), alreadySyncing: [], capped: [], notFound: [], refused: [] };
  try {
    result.targets = await targetsOf(spec, client);
  } catch (err) {
    const e = err as RelayApiError;
    return failed(`listing data sources failed: ${e.code ?? ''} ${e.message}`, !(e instanceof RelayApiError) || e.status === 0 || e.status >= 500, result);
  }
  let retryable: string | null = null;
  for (const id of result.targets) {
    if (result.started.includes(id)) continue;
    const key = `${api.baseUrl}|${api.channelId}|${id}`;
    if (!(await takeResyncAttempt(key, ctx.source.resync.maxAttemptsPerHour, ctx.clock.now()))) {
      result.capped.push(id);
      continue;
    }
    try {
      await client.dataSources.sync(id);
      result.started.push(id);
    } catch (err) {
      if (!(err instanceof RelayApiError)) throw err;
      if (err.code === 'already_syncing') result.alreadySyncing.push(id);
      else if (err.status === 404) result.notFound.push(id);
      else if (err.status === 0 || err.status >= 500) retryable = `${id}: ${err.code} ${err.message}`;
      else result.refused.push({ id, code: err.code });
    }
  }
  if (retryable) return failed(`sync start failed for ${retryable}`, true, result);
  if (result.refused.length) return failed(`sync refused: ${result.refused.map((r) => `${r.id} ${r.code}`).join(', ')}`, false, result);
  if (spec.via !== 'state' && result.notFound.length) return failed(`data source ${spec.dataSourceId} not found on the channel`, false, result);
  return ok(result);
}
