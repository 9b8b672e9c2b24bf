// Endpoint health (issue 19): a hook whose attempts have failed without one success for
// WEBHOOK_DISABLE_AFTER_FAILING_HOURS (default 120, as Svix's 5 days) is disabled, with a
// `webhook.disabled` event (other hooks can subscribe to it) and a warning in the log. The hook
// keeps `failingSince`, the start of the failing window, so re-enabling it can resend what failed
// in it (service.ts). What each process knows of a hook's `failingSince` is cached from the hooks
// it reads (fan-out, retries), so a success costs no write unless the hook was failing.
import type { AppContext } from '../context.ts';
import { trusted } from '../db/connection.ts';
import { WebhookModel, type Webhook } from './model.ts';

type Known = Pick<Webhook, 'id' | 'botId' | 'teamId' | 'type' | 'url'> & { failingSince?: Date | null };

export class HookHealth {
  /** failingSince per hook id as last read or written by this process (null: healthy). */
  private readonly known = new Map<string, Date | null>();
  private readonly hooks = new Map<string, Known>();

  constructor(
    private readonly ctx: Pick<AppContext, 'clock' | 'logger' | 'events'>,
    /** 0 never disables. */
    private readonly disableAfterMs: number,
  ) {}

  /** Hooks as read from the database (they carry the current failingSince). */
  observe(hooks: Known[]): void {
    for (const h of hooks) {
      this.known.set(h.id, h.failingSince ?? null);
      this.hooks.set(h.id, h);
    }
  }

  /** An attempt of this hook ended at `at`; never throws (health is bookkeeping, not delivery). */
  async record(webhookId: string, succeeded: boolean, at: Date): Promise<void> {
    try {
      await (succeeded ? this.succeeded(webhookId) : this.failed(webhookId, at));
    } catch (err) {
      this.ctx.logger.error({ err, webhookId }, 'webhook health could not be recorded');
    }
  }

  private async succeeded(webhookId: string): Promise<void> {
    if (this.known.get(webhookId) === null) return;
    await WebhookModel.updateOne({ _id: webhookId, failingSince: trusted({ $ne: null }) }, { $set: { failingSince: null } });
    this.known.set(webhookId, null);
  }

  private async failed(webhookId: string, now: Date): Promise<void> {
    let since = this.known.get(webhookId);
    if (!since) {
      // The first failure since a success opens the window; another process may have opened it.
      await WebhookModel.updateOne({ _id: webhookId, failingSince: null }, { $set: { failingSince: now } });
      const hook = await WebhookModel.findOne({ _id: webhookId }, { id: 1, botId: 1, teamId: 1, type: 1, url: 1, failingSince: 1 }).lean<Known>();
      if (!hook) return;
      this.observe([hook]);
      since = hook.failingSince ?? null;
    }
    if (!since || !this.disableAfterMs || now.getTime() - since.getTime() < this.disableAfterMs) return;
    await this.disable(webhookId, since, now);
  }

  private async disable(webhookId: string, since: Date, now: Date): Promise<void> {
    const res = await WebhookModel.updateOne(
      { _id: webhookId, enabled: true, failingSince: since },
      { $set: { enabled: false, disabledAt: now, disabledReason: 'failing' } },
    );
    if (!res.modifiedCount) return;
    const hook = this.hooks.get(webhookId);
    this.ctx.logger.warn({ webhookId, failingSince: since }, 'webhook disabled: its attempts failed without a success for the configured period');
    if (!hook) return;
    await this.ctx.events.emit({
      type: 'webhook.disabled',
      teamId: hook.teamId,
      botId: hook.botId,
      payload: {
        event: 'webhook.disabled',
        timestamp: now.toISOString(),
        webhook: { id: hook.id, type: hook.type, url: hook.url },
        reason: 'failing',
        failingSince: since.toISOString(),
        disabledAt: now.toISOString(),
      },
    });
  }
}
