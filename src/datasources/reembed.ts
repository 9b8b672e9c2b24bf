// A changed EMBEDDING_MODEL re-embeds in the background: when a worker starts with an embedding
// model, every data source whose live knowledge holds rows without this model's vectors gets a sync
// (trigger `sweeper`). The sync embeds only those rows (sync.job.ts); until it commits, that
// knowledge answers from BM25 alone.
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { embedderFor } from '../knowledge/embeddings.ts';
import { readCommitted } from '../knowledge/store.ts';
import { DataSourceModel, type DataSource } from './model.ts';
import { startSync } from './sync.ts';

/** Starts a sync for each data source with rows to embed; returns their ids. */
export async function syncStaleEmbeddings(ctx: AppContext): Promise<string[]> {
  const embedder = embedderFor(ctx.config);
  if (!embedder) return [];
  const started: string[] = [];
  const sources = await DataSourceModel.find({}, { _id: 1, botId: 1, state: 1 }).lean<Array<Pick<DataSource, '_id' | 'botId' | 'state'>>>();
  for (const ds of sources) {
    if (ds.state === 'syncing') continue;
    const manifest = await readCommitted(ds._id);
    if (!Object.values(manifest.rows).some((row) => row.e !== embedder.model)) continue;
    try {
      await startSync(ctx, { botId: ds.botId, dataSourceId: ds._id, trigger: 'sweeper' });
      started.push(ds._id);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      ctx.logger.info({ dataSourceId: ds._id, code: err.code }, 're-embedding sync not started');
    }
  }
  if (started.length) ctx.logger.info({ model: embedder.model, dataSources: started.length }, 'syncing data sources to embed them with the configured model');
  return started;
}
