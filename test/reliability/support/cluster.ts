// Several real `src/main.ts` processes on one database for crash and shutdown tests: start them by
// role, call their admin and public APIs over HTTP, read Agenda's job documents, kill what is left.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, type Db } from 'mongodb';
import { startServiceProcess, type ServiceProcess } from '../../helpers/process.ts';

export const ADMIN_TOKEN = 'reliability-admin-token-0123456789';
/** Process start-up (tsx, indexes, Agenda) is slow on a loaded two-core machine: over 90 s at a load of 28. */
const START_TIMEOUT_MS = 180_000;

export type Role = 'api' | 'worker' | 'all';

/**
 * Recovery settings scaled down for the kill tests (pass them to relayCluster). A 5 s outbound
 * timeout allows a 15 s job lock (config.ts), and with it:
 * - a job a killed worker had locked is taken again once the lock runs out, 15 s, and runs after a
 *   0.2 s poll (a gateway action whose attempt's lease, taken just after the lock, has not quite
 *   run out comes back a second after it does): 16.2 s;
 * - what the sweeps hand over (a webhook first attempt, a gateway delivery or pending action, an
 *   event not fanned out) waits for their grace, twice the lock (the webhook one: or twice the
 *   attempt's 10 s lease, timeout + 5 s, whichever is longer; events: 30 s) = 30 s, then for the next sweep,
 *   every 15 s (SWEEP_INTERVAL): 45 s.
 * With the defaults (10 s timeout, 30 s lock, 1 s poll) the same sums give 32 s and 75 s (docs/DEPLOY.md).
 */
export const QUICK_RECOVERY_ENV = { OUTBOUND_TIMEOUT_MS: '5000', JOB_LOCK_LIFETIME_MS: '15000', JOB_PROCESS_EVERY_MS: '200' };
export const QUICK_RECOVERY = { lockMs: 15_000, pollMs: 200, graceMs: 30_000, sweepEveryMs: 15_000, lockedBoundMs: 16_200, sweptBoundMs: 45_000 };

export interface Relay extends ServiceProcess {
  role: Role;
  pid: number;
  /** Agenda's name for this process, as written into `lastModifiedBy` of the jobs it locks. */
  agendaName: string;
  /** Base URL of the HTTP server (api and all roles). */
  url: string;
  alive(): boolean;
}

export interface Tenant {
  teamId: string;
  botId: string;
  channelId: string;
  secretKey: string;
}

export interface ApiResult {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export function relayCluster(baseEnv: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-reliability-'));
  const started: Relay[] = [];
  let client: MongoClient | undefined;

  async function start(role: Role, env: Record<string, string> = {}): Promise<Relay> {
    const svc = startServiceProcess({
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      NODE_ENV: 'test',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      // The floor (3 × the 10 s delivery timeout): a dead worker's job locks, action leases and the
      // sweeps' grace periods (2 × this) all run out as soon as the service allows.
      JOB_LOCK_LIFETIME_MS: '30000',
      ...baseEnv,
      ...env,
      ROLE: role,
    });
    let exitCode: number | null | undefined;
    void svc.exited.then((code) => (exitCode = code));
    const relay: Relay = Object.assign(svc, {
      role,
      pid: svc.child.pid!,
      agendaName: `relay-${svc.child.pid}`,
      url: '',
      alive: () => exitCode === undefined,
    });
    started.push(relay);
    if (role !== 'worker') {
      const line = await svc.waitForLog((l) => typeof l.port === 'number', START_TIMEOUT_MS);
      relay.url = `http://127.0.0.1:${line.port}`;
    }
    if (role !== 'api') await svc.waitForLog((l) => l.msg === 'relay: worker processing jobs', START_TIMEOUT_MS);
    return relay;
  }

  /** SIGKILL, as a crash: no handler runs, nothing is drained or flushed. */
  async function crash(relay: Relay): Promise<void> {
    relay.child.kill('SIGKILL');
    await relay.exited;
  }

  async function db(): Promise<Db> {
    client ??= await MongoClient.connect(baseEnv.MONGODB_URI!);
    return client.db();
  }

  async function stopAll(): Promise<void> {
    // RELIABILITY_LOGS=dir keeps every process's log lines, for reading a failure afterwards.
    const logs = process.env.RELIABILITY_LOGS;
    if (logs) {
      fs.mkdirSync(logs, { recursive: true });
      for (const r of started) fs.writeFileSync(path.join(logs, `${r.role}-${r.pid}.log`), r.logs.map((l) => JSON.stringify(l)).join('\n'));
    }
    for (const relay of started) if (relay.alive()) relay.child.kill('SIGKILL');
    await Promise.all(started.map((r) => r.exited));
    await client?.db().dropDatabase().catch(() => undefined);
    await client?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  return { start, crash, db, stopAll, dataDir };
}

async function call(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<ApiResult> {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed };
}

export function adminApi(relay: Pick<Relay, 'url'>) {
  return (method: string, route: string, body?: unknown) => call(`${relay.url}/api/admin${route}`, method, { authorization: `Bearer ${ADMIN_TOKEN}` }, body);
}

export function publicApi(relay: Pick<Relay, 'url'>, tenant: Tenant) {
  return (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) =>
    call(`${relay.url}/api/public/channels/${tenant.channelId}/2.0${route}`, method, { ...headers, 'x-api-secret-key': tenant.secretKey }, body);
}

export async function bootstrap(relay: Pick<Relay, 'url'>): Promise<Tenant> {
  const res = await adminApi(relay)('POST', '/bootstrap', { team: 'Reliability team', bot: 'Reliability bot', plan: 'enterprise' });
  if (res.status !== 201) throw new Error(`bootstrap failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Tenant;
}

/** Creates an enabled outgoing hook of `type` for the tenant's bot, pointing at `url`, with any other `settings`. */
export async function enabledHook(relay: Pick<Relay, 'url'>, tenant: Tenant, type: string, url: string, settings: Record<string, unknown> = {}): Promise<string> {
  const admin = adminApi(relay);
  const created = await admin('POST', `/bots/${tenant.botId}/webhooks`, { ...settings, type, url });
  if (created.status !== 201) throw new Error(`webhook create failed: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.webhook.id as string;
  const enabled = await admin('PUT', `/bots/${tenant.botId}/webhooks/${id}/enabled`, { enabled: true });
  if (enabled.status !== 200) throw new Error(`webhook enable failed: ${enabled.status}`);
  return id;
}

/** The Agenda job of `name` that a process holds locked right now, if any. */
export async function lockedJob(db: Db, name: string): Promise<{ lastModifiedBy: string | null; lockedAt: Date; data: unknown } | null> {
  return db.collection('agendaJobs').findOne<{ lastModifiedBy: string | null; lockedAt: Date; data: unknown }>({ name, lockedAt: { $ne: null } });
}

/**
 * Polls `check` until it returns a truthy value, at a pace a FerretDB-backed API over HTTP can
 * take (the harness's waitFor polls every 20 ms, meant for in-process checks).
 */
export async function eventually<T>(check: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs: number, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
