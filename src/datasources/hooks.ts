// Sync-trigger hooks (spec "Incoming webhook endpoint"): a secret URL that starts a sync of one
// data source. Created disabled; the secret is stored as sha256 and shown only at creation and
// regeneration, so the full URL is shown only then too.
import type { AppContext } from '../context.ts';
import type { Config } from '../config.ts';
import { newId } from '../clock.ts';
import { AppError } from '../http/errors.ts';
import { generateSecret, hashSecret, secretMatchesHash } from '../security/secrets.ts';
import { SyncHookModel, type SyncHook } from './model.ts';
import { getDataSource } from './service.ts';
import { startSync } from './sync.ts';

export const HOOK_PATH = '/api/public/hooks';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface IssuedHook {
  hook: SyncHook;
  secret: string;
}

/** HOOKS_BASE_URL, else PUBLIC_BASE_URL, else the origin the admin call came in on. */
export function hookUrl(config: Pick<Config, 'HOOKS_BASE_URL' | 'PUBLIC_BASE_URL' | 'PORT'>, hookId: string, secret: string, origin?: string): string {
  const base = (config.HOOKS_BASE_URL ?? config.PUBLIC_BASE_URL ?? origin ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  return `${base}${HOOK_PATH}/${hookId}/${secret}`;
}

const notFound = () => new AppError('hook_not_found', 'Sync hook not found');

export async function createSyncHook(ctx: AppContext, botId: string, dataSourceId: string): Promise<IssuedHook> {
  const ds = await getDataSource(botId, dataSourceId);
  const secret = generateSecret();
  const now = ctx.clock.now();
  const doc = await SyncHookModel.create({ _id: newId(), botId, teamId: ds.teamId, dataSourceId, enabled: false, secretHash: hashSecret(secret), createdAt: now, updatedAt: now });
  return { hook: doc.toObject() as SyncHook, secret };
}

export async function listSyncHooks(botId: string): Promise<SyncHook[]> {
  return SyncHookModel.find({ botId }).sort({ createdAt: 1 }).lean<SyncHook[]>();
}

export async function getSyncHook(botId: string, hookId: string): Promise<SyncHook> {
  const hook = await SyncHookModel.findOne({ _id: hookId, botId }).lean<SyncHook>();
  if (!hook) throw notFound();
  return hook;
}

export async function setSyncHookEnabled(ctx: AppContext, botId: string, hookId: string, enabled: boolean): Promise<SyncHook> {
  const hook = await SyncHookModel.findOneAndUpdate({ _id: hookId, botId }, { $set: { enabled, updatedAt: ctx.clock.now() } }, { returnDocument: 'after' }).lean<SyncHook>();
  if (!hook) throw notFound();
  return hook;
}

/** A new secret: the old URL stops working at once. */
export async function regenerateSyncHookSecret(ctx: AppContext, botId: string, hookId: string): Promise<IssuedHook> {
  const secret = generateSecret();
  const hook = await SyncHookModel.findOneAndUpdate(
    { _id: hookId, botId },
    { $set: { secretHash: hashSecret(secret), updatedAt: ctx.clock.now() } },
    { returnDocument: 'after' },
  ).lean<SyncHook>();
  if (!hook) throw notFound();
  return { hook, secret };
}

export async function deleteSyncHook(botId: string, hookId: string): Promise<void> {
  const res = await SyncHookModel.deleteOne({ _id: hookId, botId });
  if (!res.deletedCount) throw notFound();
}

/**
 * A call to the hook URL. Unknown hook, wrong or old secret and deleted hook all answer the same
 * 404, so the URL reveals nothing without its secret; a disabled hook with the right secret is 403;
 * an already-syncing source or a team out of storage tokens is 429 (as for the API's sync start).
 */
export async function triggerSyncHook(ctx: AppContext, hookId: string, secret: string): Promise<void> {
  if (!UUID_RE.test(hookId)) throw notFound();
  const hook = await SyncHookModel.findById(hookId.toLowerCase()).lean<SyncHook>();
  if (!hook || !secretMatchesHash(secret, hook.secretHash)) throw notFound();
  if (!hook.enabled) throw new AppError('hook_disabled', 'This sync hook is disabled');
  await startSync(ctx, { botId: hook.botId, dataSourceId: hook.dataSourceId, trigger: 'hook' });
}
