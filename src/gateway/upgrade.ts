// The upgrade from releases that kept a delivery's headers and raw body inside it: each body is
// copied into its own record (model.ts, GatewayDeliveryBodyModel) and then removed from the
// delivery, so the list's reads no longer decode it. Newest first, so the oldest delivery is the
// last one moved: while it still holds its body there is work left, which makes the check at each
// start one read. Idempotent (an existing body record is kept), so workers starting together, or
// one after a crash, may all run it; it runs beside traffic (reads fall back meanwhile) and stops
// between batches when the worker does. Rows whose `_id` is an ObjectId (stored before records
// carried one) keep their body inside and are read by the fallback (service.ts, bodyOf).
import { insertNew } from '../db/insertNew.ts';
import { pagesById } from '../db/pagesById.ts';
import { GatewayDeliveryBodyModel, GatewayDeliveryModel } from './model.ts';
import { storedHeaderText } from './service.ts';

const BATCH = 500;

type Row = { _id: string; id: string; headers?: unknown; rawBody?: unknown };

/** Moves the bodies an older release stored inside deliveries into their own records; returns how many. */
export async function moveBodiesApart(signal?: AbortSignal): Promise<number> {
  const deliveries = GatewayDeliveryModel.collection;
  // `$gte: ''` holds every string `_id` and no ObjectId (MongoDB compares within a type).
  const oldest = await deliveries.findOne<Row>({ _id: { $gte: '' } as never }, { sort: { _id: 1 }, projection: { _id: 1, rawBody: 1 } });
  if (oldest?.rawBody === undefined) return 0;
  let moved = 0;
  const pages = pagesById<Row>(deliveries, {}, BATCH, { _id: 1, id: 1, headers: 1, rawBody: 1 }, { gte: '', descending: true });
  for await (const page of pages) {
    if (signal?.aborted) break;
    const inside = page.filter((row) => row.rawBody !== undefined);
    if (!inside.length) continue;
    // The body first: a crash between the two writes leaves it in both places, never in neither.
    await insertNew(GatewayDeliveryBodyModel.collection, inside.map((row) => ({ _id: row.id, headers: storedHeaderText((row.headers ?? {}) as Record<string, string>), rawBody: row.rawBody })));
    await deliveries.updateMany({ _id: { $in: inside.map((row) => row._id) } as never }, { $unset: { headers: '', rawBody: '' } });
    moved += inside.length;
  }
  return moved;
}
