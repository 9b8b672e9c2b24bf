import type { RelayClient } from '../../src/client/index.ts';

/**
 * Starts a sync of a data source and polls until it ends. Returns the time until the start call
 * answered and until the source was synced (ms); a sync_error throws instead of waiting forever.
 */
export async function syncAndWait(api: RelayClient, dataSourceId: string, pollMs: number): Promise<{ startMs: number; totalMs: number }> {
  const started = performance.now();
  await api.dataSources.sync(dataSourceId);
  const startMs = performance.now() - started;
  for (;;) {
    const ds = await api.dataSources.get(dataSourceId);
    if (ds.state === 'synced') return { startMs, totalMs: performance.now() - started };
    if (ds.state === 'sync_error') throw new Error(`sync of ${dataSourceId} failed`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
