// What bench/scale.ts and its instances (bench/lib/scaleInstance.ts) share: the admin token and
// gateway secret they are configured with, a seeded tenant's keys and ids, the seeded rows' text.
import { Agent, fetch } from 'undici';
import { seededText } from './text.ts';
import { createRelayClient, type RelayClient } from '../../src/client/index.ts';

export const ADMIN_TOKEN = 'bench-scale-admin-token-0123456789';
export const GATEWAY_SECRET = 'bench-scale-gateway-secret';

/** What a seeded tenant's requests need: its keys and ids, and the ids the probes page from. */
export interface TenantKeys {
  teamId: string;
  botId: string;
  channelId: string;
  secretKey: string;
  dataSourceId: string;
  webhookId?: string;
  /** A conversation in the middle of the tenant's, for the messages page. */
  conversationId: string;
  rowIds: string[];
}
export interface Seeded {
  big?: TenantKeys;
  small: TenantKeys;
  /** Seeding time per part, ms. */
  seedingMs: Record<string, number>;
  /** The WAL's peaks per part, bytes (0 on MONGODB_URI; bench/lib/runtime.ts, walSize). */
  walPeak: Record<string, { file: number; used: number }>;
  counts: string;
}

/** An instance's API process between two asks (bench/lib/scaleInstance.ts): GC pauses, CPU, heap bytes. */
export interface GcTally {
  pauseMs: number;
  maxMs: number;
  cpuMs: number;
  heapUsed: number;
  /** Heap used, sampled every 500 ms. */
  heapPeak: number;
}

/**
 * An instance's API event loop between two asks: the delay histogram's (monitorEventLoopDelay,
 * 2 ms resolution) p99 and max, and every block of 10 ms or more that a 5 ms timer saw, with its
 * end (epoch ms) and the GC pause time inside it.
 */
export interface LoopTally {
  p99: number;
  max: number;
  blocks: Array<{ end: number; ms: number; gcMs: number }>;
}

const prose = seededText(17);
export const { words } = prose;
export function markdown(i: number, bytes = 2048): string {
  let text = `# Item ${i}\n\n`;
  while (text.length < bytes) text += `${words(8 + Math.floor(prose.random() * 10))}. `;
  return text;
}

export const patientDispatcher = new Agent({ keepAliveTimeout: 60_000, connections: 64, headersTimeout: 0, bodyTimeout: 0 });
const patientFetch = ((input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) =>
  fetch(input, { ...init, dispatcher: patientDispatcher })) as unknown as typeof globalThis.fetch;
export const clientFor = (baseUrl: string, t: Pick<TenantKeys, 'channelId' | 'secretKey'>): RelayClient =>
  createRelayClient({ baseUrl, channelId: t.channelId, secretKey: t.secretKey, fetch: patientFetch, timeoutMs: 30 * 60_000 });

