// The datasources domain module: the public data-sources API, its admin API (names, sync hooks),
// the sync-trigger hook URL, and the sync, interval and sweep jobs. See docs/DATA_SOURCES.md.
import type { AppContext } from '../context.ts';
import type { DomainModule } from '../module.ts';
import { AppError } from '../http/errors.ts';
import { dataSourceAdminRoutes } from './adminRoutes.ts';
import { HOOK_PATH, triggerSyncHook } from './hooks.ts';
import { cancelIntervalSync, INTERVAL_JOB, type IntervalJobData } from './interval.ts';
import { DataSourceModel } from './model.ts';
import { dataSourceRoutes, type DataSourceRouteOptions } from './routes.ts';
import { performSync } from './sync.job.ts';
import { startSync, SYNC_JOB, type SyncJobData } from './sync.ts';
import { performSyncSweep, SWEEP_JOB } from './sweep.job.ts';
import { syncStaleEmbeddings } from './reembed.ts';
import { prepareSyncEmbedding } from '../knowledge/embeddings.ts';
import { ensureRecurring } from '../jobs/scheduler.ts';

/** A sync by `syncInterval` follows the API's rules; a refused start (already syncing, no tokens) is skipped. */
export async function performIntervalSync(ctx: AppContext, data: IntervalJobData): Promise<'started' | 'skipped' | 'gone'> {
  const ds = await DataSourceModel.findById(data.dataSourceId, { botId: 1 }).lean();
  if (!ds) {
    await cancelIntervalSync(ctx.jobs, data.dataSourceId);
    return 'gone';
  }
  try {
    await startSync(ctx, { botId: ds.botId, dataSourceId: data.dataSourceId, trigger: 'interval' });
    return 'started';
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    ctx.logger.info({ dataSourceId: data.dataSourceId, code: err.code }, 'interval sync skipped');
    return 'skipped';
  }
}

/** The methods the sync-trigger hook takes (docs/DATA_SOURCES.md, the OpenAPI document). */
export const HOOK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export function createDataSourcesModule(opts: DataSourceRouteOptions = {}): DomainModule {
  return {
    name: 'datasources',
    publicRoutes: (router, ctx) => dataSourceRoutes(router, ctx, opts),
    adminRoutes: (router, ctx) => dataSourceAdminRoutes(router, ctx),
    rootRoutes(router, ctx) {
      // The documented methods only (docs/DATA_SOURCES.md): link scanners send HEAD, CORS preflights
      // OPTIONS, and neither may start a sync. koa-router adds HEAD to a GET route; it is taken off,
      // so the router answers it 405 with Allow (501 for methods no route has: TRACE, PROPFIND).
      const layer = router.register(`${HOOK_PATH}/:hookId/:secret`, [...HOOK_METHODS], async (c) => {
        await triggerSyncHook(ctx, c.params.hookId!, c.params.secret!);
        c.body = { success: true };
      }) as unknown as { methods: string[] };
      layer.methods = layer.methods.filter((m) => m !== 'HEAD');
    },
    // Any body: the hook ignores it, so the JSON parser must not reject it.
    rawBodyPaths: [/^\/api\/public\/hooks\//],
    defineJobs(ctx) {
      ctx.jobs.define<SyncJobData>(
        SYNC_JOB,
        async (job) => {
          await performSync(ctx, job.attrs.data, { touch: () => job.touch() });
        },
        { concurrency: 2, lockLifetime: ctx.config.JOB_LOCK_LIFETIME_MS },
      );
      ctx.jobs.define<IntervalJobData>(INTERVAL_JOB, async (job) => {
        await performIntervalSync(ctx, job.attrs.data);
      });
      ctx.jobs.define(SWEEP_JOB, async () => {
        await performSyncSweep(ctx);
      });
    },
    async start(ctx, role) {
      if (!role.worker) return;
      await ensureRecurring(ctx.jobs, '1 minute', SWEEP_JOB);
      // Not awaited: a large install reads every manifest, and traffic need not wait for it.
      void syncStaleEmbeddings(ctx).catch((err) => ctx.logger.error({ err }, 'could not start re-embedding syncs'));
      prepareSyncEmbedding(ctx.config);
    },
  };
}

export const dataSourcesModule = createDataSourcesModule();
