// Queue depth and job lag for /metrics, read from the jobs collection at scrape time:
// depth = jobs due and not locked by a worker; lag = age of the oldest of them.
import type { Db } from 'mongodb';
import { jobLag, queueDepth } from '../observability/metrics.ts';

let source: Db | undefined;

export function instrumentScheduler(db: Db): void {
  source = db;
}

/** Refreshes gauges that are read from the database; called by the /metrics route. */
export async function refreshJobGauges(now = new Date()): Promise<void> {
  if (!source) return;
  const due = await source
    .collection('agendaJobs')
    .find({ nextRunAt: { $lte: now }, lockedAt: null, disabled: { $ne: true } }, { projection: { name: 1, nextRunAt: 1 } })
    .limit(10_000)
    .toArray()
    .catch(() => undefined);
  if (!due) return;
  const byName = new Map<string, { n: number; oldest: number }>();
  for (const job of due) {
    const entry = byName.get(job.name) ?? { n: 0, oldest: Infinity };
    entry.n++;
    entry.oldest = Math.min(entry.oldest, new Date(job.nextRunAt).getTime());
    byName.set(job.name, entry);
  }
  queueDepth.reset();
  jobLag.reset();
  for (const [name, { n, oldest }] of byName) {
    queueDepth.set({ job: name }, n);
    jobLag.set({ job: name }, Math.max(0, (now.getTime() - oldest) / 1000));
  }
}
