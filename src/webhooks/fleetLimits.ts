// This process's share of each hook's limits across the fleet (docs/WEBHOOKS.md, "Limits across
// instances"): the slots it holds of the hook's `concurrency` and the rate tokens it took of the
// current window, kept in the database (src/db/sharedLimits.ts) so every api and worker process
// counts against the same numbers. The dispatcher starts an attempt only on an idle slot held here,
// and with a token when the hook has a rate. A slot is taken when a lane has more work than slots,
// takes the lane's next attempts without another write, and goes back after IDLE_MS without work.
// While it is used, its lease is renewed every HOLD_MS / 2 (one write for all of a hook's slots)
// unless another process marked that it found none free: then each goes back at the end of an
// attempt once its hold passed, so that process gets its turn. A process that finds no slot free
// marks it and asks again after a bounded backoff.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { Logger } from '../observability/logger.ts';
import { SerialBatcher } from '../db/serialBatcher.ts';
import { SharedLimits, type SlotRef } from '../db/sharedLimits.ts';
import type { LaneSettings } from './lanes.ts';
import { WebhookLimitModel } from './model.ts';

/** The hooks' slots and rate windows, shared by every process on the database. */
export const hookLimits = new SharedLimits(() => WebhookLimitModel.db.db!.collection(WebhookLimitModel.collection.collectionName));

/**
 * A slot starts attempts for at most this long after it was taken or renewed. With the lease at the
 * outbound timeout + 5 s, an attempt started on it ends at least 3 s before the lease runs out: the
 * margin for clocks that differ between processes and for a process that stalls.
 */
export const HOLD_MS = 2_000;
/** A slot that ran no attempt for this long (its hook having nothing queued here) goes back. */
const IDLE_MS = 1_000;
/** After a take found nothing free: the first wait, doubled up to the last. */
const BACKOFF_MIN_MS = 20;
const BACKOFF_MAX_MS = 250;

/** A slot this process holds; the dispatcher passes it back when its attempt ends. */
export interface HeldSlot {
  index: number;
  holder: string;
  /** By the clock: the lease runs out at takenAt + leaseMs. */
  takenAt: number;
  /** By the clock: attempts start on it until then (HOLD_MS after it was taken or renewed). */
  holdUntil: number;
  busy: boolean;
  /** By performance.now(): when its last attempt ended. */
  idleSince: number;
}

interface Share {
  slots: HeldSlot[];
  /** Rate tokens left, usable until tokensUntil (the end of their window, by the clock). */
  tokens: number;
  tokensUntil: number;
  asking: boolean;
  /** Set while this hook waits before asking again. */
  retry: NodeJS.Timeout | null;
  backoffMs: number;
  idleTimer: NodeJS.Timeout | null;
  renewTimer: NodeJS.Timeout | null;
  /** Attempts of the hook queued here, as last seen: idle slots of a lane with work are kept. */
  waiting: number;
}

export interface FleetLimitsOptions {
  clock: Clock;
  logger: Logger;
  /** How long a taken slot stays held if its holder never gives it back: above the attempt's timeout. */
  leaseMs: number;
  /** Names this process in the slots it holds (with a random part per take). */
  holder: string;
  /** Something changed that may let an attempt start (a slot or token taken, a wait over). */
  wake: () => void;
}

/** Tokens per window and the window's length for a rate: whole tokens, and exactly the rate on average. */
export function rateWindow(ratePerSecond: number): { perWindow: number; windowMs: number } {
  const perWindow = Math.max(1, Math.floor(ratePerSecond));
  return { perWindow, windowMs: Math.round((perWindow / ratePerSecond) * 1000) };
}

export class FleetLimits {
  private readonly shares = new Map<string, Share>();
  /** How many of each hook's slots are known to exist in the database (made once per process). */
  private readonly ensured = new Map<string, number>();
  private readonly releases: SerialBatcher<SlotRef>;
  /** This process in the slots it holds and in the marks it leaves. */
  private readonly process: string;
  private takes = 0;
  private closed = false;
  /** Slots held over all hooks, and those running an attempt. */
  private held = 0;
  private busy = 0;

  constructor(
    private readonly store: SharedLimits,
    private readonly opts: FleetLimitsOptions,
  ) {
    this.process = `${opts.holder}/${randomBytes(4).toString('hex')}`;
    this.releases = new SerialBatcher(256, (slots) =>
      this.store.releaseSlots(slots).catch((err) => this.opts.logger.warn({ err, slots: slots.length }, 'webhook slots could not be given back; their leases run out instead')),
    );
  }

  /** Whether this hook may start one more attempt now: an idle slot held here, and a token if it has a rate. */
  mayStart(key: string, settings: LaneSettings): boolean {
    const share = this.shares.get(key);
    if (!share) return false;
    const now = this.opts.clock.now().getTime();
    if (!share.slots.some((s) => this.usable(s, settings, now))) return false;
    return !settings.ratePerSecond || (share.tokens > 0 && now < share.tokensUntil);
  }

  /** An attempt starts (after mayStart answered true): it takes an idle slot, and a token. */
  start(key: string, settings: LaneSettings): HeldSlot {
    const share = this.shares.get(key)!;
    const now = this.opts.clock.now().getTime();
    const slot = share.slots.find((s) => this.usable(s, settings, now))!;
    slot.busy = true;
    this.busy++;
    if (settings.ratePerSecond) share.tokens--;
    return slot;
  }

  /** The attempt on `slot` ended; `waiting`: the hook has more queued here. */
  end(key: string, slot: HeldSlot, waiting: boolean): void {
    const share = this.shares.get(key);
    slot.busy = false;
    this.busy--;
    slot.idleSince = performance.now();
    if (!share) return;
    share.waiting = waiting ? Math.max(1, share.waiting) : 0;
    if (this.closed || this.opts.clock.now().getTime() >= slot.holdUntil) {
      // Before asking again, a moment in which another process waiting for the hook may take it.
      if (waiting && !share.retry) this.retryIn(key, share, Math.random() * BACKOFF_MAX_MS);
      this.giveBack(key, share, [slot]);
      this.forgetIfEmpty(key, share);
    } else if (!waiting) this.armIdle(key, share);
  }

  /**
   * The hook has `waiting` attempts queued here and the process has room for `room` more: takes the
   * slots (or tokens) they need, unless already asking or waiting to. Answers at once; `wake` is
   * called when something was taken.
   */
  want(key: string, settings: LaneSettings, waiting: number, room: number): void {
    if (this.closed) return;
    let share = this.shares.get(key);
    if (!share) {
      share = { slots: [], tokens: 0, tokensUntil: 0, asking: false, retry: null, backoffMs: 0, idleTimer: null, renewTimer: null, waiting: 0 };
      this.shares.set(key, share);
    }
    share.waiting = waiting;
    const now = this.opts.clock.now().getTime();
    // Idle slots past their hold (or above a lowered cap) go back: they take no more attempts.
    const stale = share.slots.filter((s) => !s.busy && !this.usable(s, settings, now));
    if (stale.length) this.giveBack(key, share, stale);
    if (share.asking || share.retry) return;
    const busy = share.slots.filter((s) => s.busy).length;
    const idle = share.slots.length - busy;
    // Room the process has beside the other hooks' idle slots: a lane takes no slot it could not use.
    const free = Math.max(0, room - (this.held - this.busy - idle));
    const need = Math.min(settings.concurrency, busy + Math.min(waiting, free)) - busy - idle;
    if (need > 0) this.ask(key, share, () => this.takeSlots(key, share, settings, need), () => this.backoff(share));
    else if (settings.ratePerSecond && idle > 0 && !(share.tokens > 0 && now < share.tokensUntil)) {
      const { perWindow, windowMs } = rateWindow(settings.ratePerSecond);
      const windowStart = Math.floor(now / windowMs) * windowMs;
      // Nothing left in this window: ask again when the next one starts.
      this.ask(key, share, () => this.takeTokens(key, share, perWindow, windowStart, windowMs, Math.min(idle, waiting)), () => Math.max(BACKOFF_MIN_MS, windowStart + windowMs - now));
    }
  }

  /** Gives back every idle slot and lets busy ones go back as their attempts end (shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    for (const [key, share] of this.shares) {
      if (share.retry) clearTimeout(share.retry);
      if (share.idleTimer) clearTimeout(share.idleTimer);
      if (share.renewTimer) clearTimeout(share.renewTimer);
      share.retry = share.idleTimer = share.renewTimer = null;
      this.giveBack(key, share, share.slots.filter((s) => !s.busy));
    }
    await this.releases.drained();
  }

  private usable(slot: HeldSlot, settings: LaneSettings, now: number): boolean {
    return !slot.busy && slot.index < settings.concurrency && now < slot.holdUntil;
  }

  /** Runs one take; when it got nothing, the hook waits `waitIfNone()` ms before asking again. */
  private ask(key: string, share: Share, take: () => Promise<number>, waitIfNone: () => number): void {
    share.asking = true;
    take().then(
      (got) => {
        share.asking = false;
        if (got > 0) {
          share.backoffMs = 0;
          this.opts.wake();
        } else this.retryIn(key, share, waitIfNone());
      },
      (err) => {
        share.asking = false;
        this.opts.logger.warn({ err }, 'webhook limits could not be read; asking again shortly');
        this.retryIn(key, share, BACKOFF_MAX_MS);
      },
    );
  }

  private backoff(share: Share): number {
    share.backoffMs = Math.min(BACKOFF_MAX_MS, Math.max(BACKOFF_MIN_MS, share.backoffMs * 2));
    return share.backoffMs;
  }

  private retryIn(key: string, share: Share, ms: number): void {
    if (this.closed) return;
    share.retry = setTimeout(() => {
      share.retry = null;
      this.opts.wake();
      this.forgetIfEmpty(key, share);
    }, ms);
  }

  private async takeSlots(key: string, share: Share, settings: LaneSettings, need: number): Promise<number> {
    if ((this.ensured.get(key) ?? 0) < settings.concurrency) {
      await this.store.ensureSlots(key, settings.concurrency);
      this.ensured.set(key, settings.concurrency);
    }
    const holder = `${this.process}.${++this.takes}`;
    const now = this.opts.clock.now();
    const taken = await this.store.takeSlots(key, settings.concurrency, need, holder, now, this.opts.leaseMs);
    // Holders read the mark before they renew, and let their slots go back instead.
    if (!taken.length) await this.store.markWanted(key, this.process, now);
    const idleSince = performance.now();
    const takenAt = now.getTime();
    const slots = taken.map((index) => ({ index, holder, takenAt, holdUntil: takenAt + HOLD_MS, busy: false, idleSince }));
    share.slots.push(...slots);
    this.held += slots.length;
    // Taken while the process was stopping: straight back.
    if (this.closed) this.giveBack(key, share, slots);
    else if (slots.length) {
      this.armIdle(key, share);
      this.armRenew(key, share);
    }
    return this.closed ? 0 : slots.length;
  }

  private async takeTokens(key: string, share: Share, perWindow: number, windowStart: number, windowMs: number, want: number): Promise<number> {
    const got = await this.store.takeTokens(key, perWindow, windowStart, want);
    if (got > 0) {
      share.tokens = got;
      share.tokensUntil = windowStart + windowMs;
    }
    return got;
  }

  private giveBack(key: string, share: Share, slots: HeldSlot[]): void {
    share.slots = share.slots.filter((s) => !slots.includes(s));
    this.held -= slots.length;
    for (const s of slots) this.releases.add({ owner: key, index: s.index, holder: s.holder });
  }

  /** A hook this process holds nothing of and waits for nothing of is forgotten. */
  private forgetIfEmpty(key: string, share: Share): void {
    if (share.slots.length || share.asking || share.retry || share.idleTimer || share.renewTimer) return;
    if (this.shares.get(key) === share) this.shares.delete(key);
  }

  /** Renews the hook's slots every HOLD_MS / 2 while it holds any. */
  private armRenew(key: string, share: Share): void {
    if (share.renewTimer || this.closed) return;
    share.renewTimer = setTimeout(() => {
      void this.renew(key, share).finally(() => {
        share.renewTimer = null;
        if (share.slots.length) this.armRenew(key, share);
        else this.forgetIfEmpty(key, share);
      });
    }, HOLD_MS / 2);
  }

  /**
   * Moves the lease and the hold of the hook's slots still within their hold on, unless another
   * process marked in the last HOLD_MS * 2 that it found none free: then they go back as their
   * holds run out (end()).
   */
  private async renew(key: string, share: Share): Promise<void> {
    if (this.closed || !share.slots.length) return;
    try {
      const wanted = await this.store.lastWanted(key);
      const now = this.opts.clock.now();
      if (wanted && wanted.by !== this.process && wanted.at.getTime() > now.getTime() - 2 * HOLD_MS) return;
      const slots = share.slots.filter((s) => now.getTime() < s.holdUntil);
      const refs = slots.map((s) => ({ owner: key, index: s.index, holder: s.holder }));
      if (!slots.length || !(await this.store.renewSlots(refs, now, this.opts.leaseMs))) return;
      for (const s of slots) s.holdUntil = Math.max(s.holdUntil, now.getTime() + HOLD_MS);
    } catch (err) {
      this.opts.logger.warn({ err }, 'webhook slots could not be renewed; they go back as their holds run out');
    }
  }

  /** Gives back the hook's slots that stay idle for IDLE_MS while it has nothing queued here. */
  private armIdle(key: string, share: Share): void {
    if (share.idleTimer || this.closed) return;
    share.idleTimer = setTimeout(() => {
      share.idleTimer = null;
      const cutoff = performance.now() - IDLE_MS;
      const idle = share.waiting ? [] : share.slots.filter((s) => !s.busy && s.idleSince <= cutoff);
      if (idle.length) this.giveBack(key, share, idle);
      if (share.slots.some((s) => !s.busy)) this.armIdle(key, share);
      else this.forgetIfEmpty(key, share);
    }, IDLE_MS);
  }
}
