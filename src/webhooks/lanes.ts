// Per-hook lanes for attempts run in-process (issue 19, "no head-of-line blocking"): each hook has
// its own queue, at most `concurrency` of its attempts in flight and, optionally, at most
// `ratePerSecond` started per second (a token bucket). Free slots go round robin over the hooks
// that may start one, so a hook whose endpoint hangs for the whole timeout holds its own slots
// only and never delays another hook's deliveries. Pure: the dispatcher owns the slots and timers,
// and tells `take` which lanes the fleet lets start one more (fleetLimits.ts).

export interface LaneSettings {
  /** Attempts of this hook in flight at once. */
  concurrency: number;
  /** Attempts of this hook started per second; null for no limit. */
  ratePerSecond: number | null;
}

/** A hook's own lane limits (null: the service's). */
export interface HookLane {
  concurrency: number | null;
  ratePerSecond: number | null;
}
export const laneOf = (hook: { concurrency?: number | null; ratePerSecond?: number | null } | null): HookLane => ({
  concurrency: hook?.concurrency ?? null,
  ratePerSecond: hook?.ratePerSecond ?? null,
});

interface Lane<T> {
  items: T[];
  running: number;
  settings: LaneSettings;
  /** Token bucket (rate-limited lanes): tokens left and when they were counted. */
  tokens: number;
  countedAt: number;
}

export class Lanes<T> {
  private readonly lanes = new Map<string, Lane<T>>();
  /** Lanes with items waiting, in round-robin order from `cursor`. */
  private order: string[] = [];
  private cursor = 0;
  private waiting = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Items waiting to start, over all lanes. */
  get size(): number {
    return this.waiting;
  }

  /** Queues an item on its hook's lane; the latest settings seen for a hook apply. */
  add(key: string, item: T, settings: LaneSettings): void {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { items: [], running: 0, settings, tokens: Math.max(1, settings.ratePerSecond ?? 1), countedAt: this.now() };
      this.lanes.set(key, lane);
    }
    lane.settings = settings;
    if (!lane.items.length) this.order.push(key);
    lane.items.push(item);
    this.waiting++;
  }

  /**
   * The next item that may start now (round robin over lanes below their cap and rate, and that
   * `allowed` lets start one), or null.
   */
  take(allowed: (key: string, settings: LaneSettings) => boolean = () => true): { key: string; item: T; settings: LaneSettings } | null {
    const now = this.now();
    for (let i = 0; i < this.order.length; i++) {
      const index = (this.cursor + i) % this.order.length;
      const key = this.order[index]!;
      const lane = this.lanes.get(key)!;
      if (lane.running >= lane.settings.concurrency || !allowed(key, lane.settings) || !this.takeToken(lane, now)) continue;
      const item = lane.items.shift()!;
      lane.running++;
      this.waiting--;
      if (lane.items.length) this.cursor = (index + 1) % this.order.length;
      else {
        this.order.splice(index, 1);
        this.cursor = this.order.length ? index % this.order.length : 0;
      }
      return { key, item, settings: lane.settings };
    }
    return null;
  }

  /** The lanes with items waiting, with what each runs and has waiting. */
  *waitingLanes(): Generator<{ key: string; settings: LaneSettings; running: number; waiting: number }> {
    for (const key of this.order) {
      const lane = this.lanes.get(key)!;
      yield { key, settings: lane.settings, running: lane.running, waiting: lane.items.length };
    }
  }

  /** Items of this lane waiting to start. */
  waitingIn(key: string): number {
    return this.lanes.get(key)?.items.length ?? 0;
  }

  /** A started item of this lane ended. */
  done(key: string): void {
    const lane = this.lanes.get(key);
    if (!lane) return;
    lane.running--;
    if (lane.running <= 0 && !lane.items.length && lane.tokens >= Math.max(1, lane.settings.ratePerSecond ?? 1)) this.lanes.delete(key);
  }

  /** In how many ms a lane held back only by its rate may start one; null when none is. */
  wakeIn(): number | null {
    const now = this.now();
    let soonest: number | null = null;
    for (const key of this.order) {
      const lane = this.lanes.get(key)!;
      const rate = lane.settings.ratePerSecond;
      if (!rate || lane.running >= lane.settings.concurrency) continue;
      this.refill(lane, now);
      const ms = lane.tokens >= 1 ? 0 : Math.ceil(((1 - lane.tokens) * 1000) / rate);
      soonest = soonest === null ? ms : Math.min(soonest, ms);
    }
    return soonest;
  }

  private refill(lane: Lane<T>, now: number): void {
    const rate = lane.settings.ratePerSecond;
    if (!rate) return;
    lane.tokens = Math.min(Math.max(1, rate), lane.tokens + ((now - lane.countedAt) * rate) / 1000);
    lane.countedAt = now;
  }

  private takeToken(lane: Lane<T>, now: number): boolean {
    if (!lane.settings.ratePerSecond) return true;
    this.refill(lane, now);
    if (lane.tokens < 1) return false;
    lane.tokens -= 1;
    return true;
  }
}
