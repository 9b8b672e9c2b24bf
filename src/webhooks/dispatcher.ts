// Runs first attempts in the process that created the deliveries, right away, instead of waiting
// for a worker to poll Agenda (spec issue: "first attempt must not wait for the poll interval").
// Bounded concurrency; a failed attempt's next run is handed to Agenda. Anything lost here (crash,
// database trouble) stays pending in the database and the sweep job enqueues it.
import { perform, scheduleDelivery, type DeliveryDeps } from './delivery.job.ts';

export class DeliveryDispatcher {
  private readonly queue: string[] = [];
  private head = 0;
  private running = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly deps: DeliveryDeps,
    private readonly concurrency: number,
  ) {}

  /** Starts the due attempt of each delivery as soon as a slot is free; does not wait for them. */
  kick(deliveryIds: string[]): void {
    this.queue.push(...deliveryIds);
    this.pump();
  }

  /** Runs one delivery's due attempt now and waits for it (resend from the CLI, tests). */
  async runNow(deliveryId: string): Promise<void> {
    this.running++;
    try {
      await this.attempt(deliveryId);
    } finally {
      this.running--;
      this.pump();
    }
  }

  /** Resolves once nothing is queued or running (shutdown, benchmarks). */
  async idle(timeoutMs = 30_000): Promise<void> {
    if (this.running === 0 && this.head >= this.queue.length) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private pump(): void {
    while (this.running < this.concurrency && this.head < this.queue.length) {
      const id = this.queue[this.head++]!;
      this.running++;
      void this.attempt(id).finally(() => {
        this.running--;
        this.pump();
      });
    }
    if (this.head >= this.queue.length && this.head > 0) {
      this.queue.length = 0;
      this.head = 0;
    }
    if (this.running === 0 && this.head >= this.queue.length) {
      for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  private async attempt(deliveryId: string): Promise<void> {
    try {
      const outcome = await perform(this.deps, deliveryId);
      if (!outcome.done) await scheduleDelivery(this.deps.ctx.jobs, deliveryId, outcome.retryAt);
    } catch (err) {
      this.deps.ctx.logger.error({ err, deliveryId }, 'webhook delivery attempt failed to run; the sweep will retry it');
    }
  }
}
