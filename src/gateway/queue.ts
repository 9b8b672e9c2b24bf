// Hands stored deliveries to the gateway.process job in batches, off the request path. The intake
// answers once the delivery is stored; deliveries stored within one short window go out as one
// job. On FerretDB/SQLite every write is a commit, and one job insert per delivery halved intake
// throughput (docs/BENCHMARKS.md, "Gateway"). The window is 250 ms: a job costs about ten database
// commands (its own, its reads and its writes) whatever it holds; at 200/s a 20 ms window made
// ~6-delivery jobs whose upkeep was a quarter of the database CPU per delivery, and 250 ms against
// 100 ms took a further ~0.07 of a core (docs/BENCHMARKS.md, "Gateway"); processing
// merely starts later, the answer does not wait for it. A crash inside the window, or a failed enqueue,
// leaves stored deliveries without a job: the sweep job enqueues them (docs/GATEWAY.md).
import type { Logger } from '../observability/logger.ts';
import type { Scheduler } from '../jobs/scheduler.ts';

export const PROCESS_JOB = 'gateway.process';

export interface ProcessItem {
  id: string;
  run: number;
}

/** One or more deliveries: the queue batches them under load. */
export interface ProcessJobData {
  deliveries: ProcessItem[];
}

const MAX_BATCH = 500;

export class ProcessQueue {
  private waiting: ProcessItem[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly jobs: Scheduler,
    private readonly logger: Logger,
    private readonly windowMs = 250,
  ) {}

  add(item: ProcessItem): void {
    this.waiting.push(item);
    this.timer ??= setTimeout(() => void this.flush(), this.windowMs);
  }

  /** Enqueues everything waiting; also called on shutdown so a graceful stop loses nothing. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.waiting.splice(0);
    this.flushing = this.flushing.then(async () => {
      for (let i = 0; i < batch.length; i += MAX_BATCH) {
        const deliveries = batch.slice(i, i + MAX_BATCH);
        try {
          await this.jobs.now<ProcessJobData>(PROCESS_JOB, { deliveries });
        } catch (err) {
          this.logger.error({ err, deliveries: deliveries.length }, 'gateway enqueue failed; the sweep will enqueue these deliveries');
        }
      }
    });
    return this.flushing;
  }
}
