// The instance registry: each process writes a heartbeat every FLEET_POLL_MS with what its domains
// report, so an operator sees which instances run, and which configuration each runs. Shared
// settings are generation counters an instance bumps and the others follow on their next poll.
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { Logger } from '../observability/logger.ts';
import { trusted } from '../db/connection.ts';
import { FleetSettingModel, InstanceModel } from './fleetModel.ts';

/** An instance silent for this many polls is no longer listed; its row goes after a day. */
const SILENT_POLLS = 5;
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;

export interface InstanceView {
  id: string;
  role: string;
  host: string;
  pid: number;
  startedAt: Date;
  heartbeatAt: Date;
  reports: Record<string, unknown>;
}

export class InstanceRegistry {
  readonly id: string;
  private reports: Record<string, unknown> = {};
  private readonly startedAt: Date;
  private readonly followers: Array<() => Promise<void>> = [];
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  /** Only serving instances join the registry: a CLI command's runtime writes no heartbeat. */
  private joined = false;

  constructor(private readonly opts: { role: string; clock: Clock; pollMs: number; logger: Logger; id?: string }) {
    this.id = opts.id ?? `${os.hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.startedAt = opts.clock.now();
  }

  get pollMs(): number {
    return this.opts.pollMs;
  }

  /** Runs `follow` on every poll, before the heartbeat (a domain catching up with a shared setting). */
  follow(follow: () => Promise<void>): void {
    this.followers.push(follow);
  }

  /** One poll: every follower, then the heartbeat. Tests call it to drive the fleet without waiting. */
  tick(): Promise<void> {
    this.ticking ??= (async () => {
      for (const follow of this.followers) await follow().catch((err) => this.opts.logger.error({ err }, 'fleet: could not follow a shared setting'));
      await this.heartbeat().catch((err) => this.opts.logger.warn({ err }, 'fleet: heartbeat failed'));
    })().finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  /** Joins the registry and polls every pollMs from now on. */
  start(): void {
    this.joined = true;
    this.timer ??= setInterval(() => void this.tick(), this.opts.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
    if (this.joined) await this.leave().catch(() => undefined);
    this.joined = false;
  }

  /** Sets what `domain` reports and writes the heartbeat at once. */
  async report(domain: string, value: unknown): Promise<void> {
    this.reports[domain] = value;
    await this.heartbeat();
  }

  async heartbeat(): Promise<void> {
    if (!this.joined) return;
    const now = this.opts.clock.now();
    await InstanceModel.updateOne(
      { _id: this.id },
      { $set: { role: this.opts.role, host: os.hostname(), pid: process.pid, startedAt: this.startedAt, heartbeatAt: now, reports: this.reports } },
      { upsert: true },
    );
  }

  /** Instances heard from lately, oldest first; forgets those silent for a day. */
  async live(): Promise<InstanceView[]> {
    const now = this.opts.clock.now().getTime();
    await InstanceModel.deleteMany({ heartbeatAt: trusted({ $lt: new Date(now - FORGET_AFTER_MS) }) });
    const rows = await InstanceModel.find({ heartbeatAt: trusted({ $gte: new Date(now - Math.max(SILENT_POLLS * this.opts.pollMs, 15_000)) }) }).lean();
    return rows
      .map((r) => ({ id: r._id, role: r.role, host: r.host, pid: r.pid, startedAt: r.startedAt, heartbeatAt: r.heartbeatAt, reports: (r.reports ?? {}) as Record<string, unknown> }))
      .sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime() || a.id.localeCompare(b.id));
  }

  async leave(): Promise<void> {
    await InstanceModel.deleteOne({ _id: this.id });
  }

  /** Bumps a shared setting's generation; every instance following it acts on its next poll. */
  async bump(name: string): Promise<number> {
    const row = await FleetSettingModel.findOneAndUpdate(
      { _id: name },
      { $inc: { generation: 1 }, $set: { changedAt: this.opts.clock.now(), changedBy: this.id } },
      { upsert: true, returnDocument: 'after' },
    ).lean();
    return row!.generation;
  }

  async generation(name: string): Promise<number> {
    const row = await FleetSettingModel.findById(name).lean();
    return row?.generation ?? 0;
  }
}
