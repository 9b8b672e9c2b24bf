// Limits shared by every process on the database: numbered slot leases (at most `count` holders of
// an owner's slots at once, with a mark of who last found none free) and window counters (at most
// `perWindow` tokens an owner's window).
// Each slot and each counter is one document under a fixed `_id`, created once by insert; taking
// and giving back are conditional updates, which hand a document to one caller on MongoDB and on
// Relay's FerretDB (its atomic-update patch, docs/FERRETDB.md). A slot holds an expiry, so a holder
// that dies frees its slots by itself. Times are the callers' clocks.
import type { Collection } from 'mongodb';
import { insertNew, insertedOnce } from './insertNew.ts';

interface SlotDoc {
  _id: string;
  /** The take that holds the slot (unique per take); null when free. */
  holder: string | null;
  /** The slot is free from then on, held or not. */
  expiresAt: Date;
}

interface WantedDoc {
  _id: string;
  by: string;
  at: Date;
}

interface WindowDoc {
  _id: string;
  /** Start of the counted window, in ms since the epoch. */
  windowStart: number;
  count: number;
}

/** Zero-padded so an owner's slots below `count` are one `_id` range. */
const slotKey = (owner: string, index: number) => `${owner}#s${String(index).padStart(4, '0')}`;
const windowKey = (owner: string) => `${owner}#w`;
const wantedKey = (owner: string) => `${owner}#q`;
const FREE = new Date(0);

/** These slots, where their holder still holds them (its lease may have run out and another taken it). */
const stillHeld = (slots: SlotRef[]) => ({ _id: { $in: slots.map((s) => slotKey(s.owner, s.index)) }, holder: { $in: [...new Set(slots.map((s) => s.holder))] } });

export interface SlotRef {
  owner: string;
  index: number;
  holder: string;
}

export class SharedLimits {
  constructor(private readonly collection: () => Collection) {}

  private get slots(): Collection<SlotDoc> {
    return this.collection() as unknown as Collection<SlotDoc>;
  }

  private get windows(): Collection<WindowDoc> {
    return this.collection() as unknown as Collection<WindowDoc>;
  }

  private get wanted(): Collection<WantedDoc> {
    return this.collection() as unknown as Collection<WantedDoc>;
  }

  /** Creates the owner's slots below `count` that do not exist yet (free). */
  async ensureSlots(owner: string, count: number): Promise<void> {
    await insertNew(
      this.slots,
      Array.from({ length: count }, (_, index) => ({ _id: slotKey(owner, index), holder: null, expiresAt: FREE })),
    );
  }

  /**
   * Takes up to `want` of the owner's free slots below `count` for `holder`, each until `now` +
   * `leaseMs`; answers the indexes taken (none when every slot is held and not expired).
   */
  async takeSlots(owner: string, count: number, want: number, holder: string, now: Date, leaseMs: number): Promise<number[]> {
    const range = { $gte: slotKey(owner, 0), $lt: slotKey(owner, count) };
    const taken = { $set: { holder, expiresAt: new Date(now.getTime() + leaseMs) } };
    const indexOf = (id: string) => Number(id.slice(id.lastIndexOf('#s') + 2));
    if (want <= 1) {
      const doc = await this.slots.findOneAndUpdate({ _id: range, expiresAt: { $lte: now } }, taken);
      return doc ? [indexOf(doc._id)] : [];
    }
    // Several at once: which are free, then one update of those still free, then which it won.
    const free = await this.slots.find({ _id: range, expiresAt: { $lte: now } }, { projection: { _id: 1 } }).limit(want).toArray();
    if (!free.length) return [];
    const ids = free.map((d) => d._id);
    const res = await this.slots.updateMany({ _id: { $in: ids }, expiresAt: { $lte: now } }, taken);
    if (res.modifiedCount === ids.length) return ids.map(indexOf);
    if (res.modifiedCount === 0) return [];
    const won = await this.slots.find({ _id: { $in: ids }, holder }, { projection: { _id: 1 } }).toArray();
    return won.map((d) => indexOf(d._id));
  }

  /** Gives slots back; a slot whose lease ran out and that another took since is left alone. */
  async releaseSlots(slots: SlotRef[]): Promise<void> {
    if (!slots.length) return;
    await this.slots.updateMany(
      stillHeld(slots),
      { $set: { holder: null, expiresAt: FREE } },
    );
  }

  /**
   * Moves the lease of slots still held by their holders to `now` + `leaseMs`; false when any of
   * them is not (its lease ran out and another took it), and then none may be counted on.
   */
  async renewSlots(slots: SlotRef[], now: Date, leaseMs: number): Promise<boolean> {
    if (!slots.length) return true;
    const res = await this.slots.updateMany(
      stillHeld(slots),
      { $set: { expiresAt: new Date(now.getTime() + leaseMs) } },
    );
    return res.matchedCount === slots.length;
  }

  /** Notes that `by` found none of the owner's slots free at `now` (holders read it before keeping theirs). */
  async markWanted(owner: string, by: string, now: Date): Promise<void> {
    await this.wanted.updateOne({ _id: wantedKey(owner) }, { $set: { by, at: now } }, { upsert: true });
  }

  /** Who last found none of the owner's slots free, and when; null if no one did. */
  async lastWanted(owner: string): Promise<{ by: string; at: Date } | null> {
    return this.wanted.findOne({ _id: wantedKey(owner) });
  }

  /**
   * Takes up to `want` (at most `perWindow`) of the owner's tokens in the window starting at
   * `windowStart`; answers how many it got. A counter still on an earlier window starts this one;
   * one on a later window (a caller whose clock runs ahead moved it) gives nothing until then.
   */
  async takeTokens(owner: string, perWindow: number, windowStart: number, want: number): Promise<number> {
    const _id = windowKey(owner);
    want = Math.min(want, perWindow);
    for (let round = 0; round < 3 && want > 0; round++) {
      if (await this.windows.findOneAndUpdate({ _id, windowStart, count: { $lte: perWindow - want } }, { $inc: { count: want } })) return want;
      if (await this.windows.findOneAndUpdate({ _id, windowStart: { $lt: windowStart } }, { $set: { windowStart, count: want } })) return want;
      const current = await this.windows.findOne({ _id });
      if (!current) {
        if (await insertedOnce(this.windows.insertOne({ _id, windowStart, count: want }))) return want;
        continue;
      }
      if (current.windowStart !== windowStart || current.count >= perWindow) return 0;
      // Fewer left than wanted: take what is left, if no one took it meanwhile.
      want = perWindow - current.count;
      if (await this.windows.findOneAndUpdate({ _id, windowStart, count: current.count }, { $inc: { count: want } })) return want;
    }
    return 0;
  }

  /** Deletes everything of the owner (its slots, its counter and its mark). */
  async forget(owner: string): Promise<void> {
    await this.slots.deleteMany({ _id: { $gte: `${owner}#`, $lt: `${owner}$` } });
  }
}
