// How long `relay` takes to answer, as a user runs it (node bin/relay.js, the compiled CLI), against
// a same-run baseline: the start of a bare `node -e 0`, and the HTTP round trip of the same call
// made in-process. Goals (issue 37, a quiet 2-core machine): `relay --help` under 0.5 s; an admin
// and a public command under 1 s beyond their round trip. Runs alternate, so load drifts hit all.
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startBenchRuntime, machineLine } from './lib/runtime.ts';
import { provisionTenant } from '../src/platform/service.ts';

const run = promisify(execFile);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';

// Compile first, as `npm ci` does: a stale dist/ would time the build instead.
await run(process.execPath, [path.join(root, 'bin/build.mjs')]);

const bench = await startBenchRuntime({ worker: false, env: { ADMIN_TOKEN } });
const tenant = await provisionTenant({ team: 'bench', bot: 'bench' });

const env = { ...process.env, LOG_LEVEL: 'silent', RELAY_URL: bench.baseUrl, ADMIN_TOKEN, RELAY_CHANNEL_ID: tenant.channelId, RELAY_SECRET_KEY: tenant.secretKey };
interface Sample {
  wallMs: number;
  /** CPU time of the child process (user + system), which load on the machine hardly changes. */
  cpuMs: number;
}
async function timed(fn: () => Promise<unknown>): Promise<Sample> {
  const started = process.hrtime.bigint();
  await fn();
  return { wallMs: Number(process.hrtime.bigint() - started) / 1e6, cpuMs: 0 };
}
// A shell runs the command, then reads its own children's CPU time (cutime + cstime, in ticks).
async function child(args: string[]): Promise<Sample> {
  const started = process.hrtime.bigint();
  const { stdout } = await run('sh', ['-c', '"$@" >/dev/null; cat /proc/$$/stat', 'sh', ...args], { env, cwd: root });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const fields = stdout.slice(stdout.lastIndexOf(')') + 2).trim().split(' ');
  const ticks = Number(fields[13]) + Number(fields[14]); // fields 16 and 17 of proc(5), counted after the name
  return { wallMs, cpuMs: (ticks * 1000) / 100 };
}
const relay = (...args: string[]) => child([process.execPath, path.join(root, 'bin/relay.js'), ...args]);
const fetched = (url: string, headers: Record<string, string>, body?: unknown) =>
  timed(async () => {
    const res = await fetch(url, body === undefined ? { headers } : { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    await res.arrayBuffer();
  });

const ADMIN_TRIP = 'admin round trip (in-process GET /api/admin/teams)';
const PUBLIC_TRIP = 'public round trip (in-process POST …/2.0/data-sources/list)';
const cases: Record<string, () => Promise<Sample>> = {
  'node -e 0': () => child([process.execPath, '-e', '0']),
  'relay --help': () => relay('--help'),
  [ADMIN_TRIP]: () => fetched(`${bench.baseUrl}/api/admin/teams`, { authorization: `Bearer ${ADMIN_TOKEN}` }),
  'relay teams list': () => relay('teams', 'list'),
  [PUBLIC_TRIP]: () =>
    fetched(`${bench.baseUrl}/api/public/channels/${tenant.channelId}/2.0/data-sources/list`, { 'x-api-secret-key': tenant.secretKey }, {}),
  'relay public list-data-sources': () => relay('public', 'list-data-sources'),
};

const samples: Record<string, Sample[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (const fn of Object.values(cases)) await fn(); // warm the page cache and the server
for (let round = 0; round < ROUNDS; round++) for (const [name, fn] of Object.entries(cases)) samples[name]!.push(await fn());
await bench.close();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const wall = (name: string) => median(samples[name]!.map((x) => x.wallMs));
const cpu = (name: string) => median(samples[name]!.map((x) => x.cpuMs));
console.log(`cli benchmark — ${machineLine()}; load ${os.loadavg()[0]!.toFixed(1)}; median of ${ROUNDS} alternating rounds`);
for (const name of Object.keys(cases)) {
  const cpuText = name.startsWith('relay') || name.startsWith('node') ? `  cpu ${cpu(name).toFixed(0).padStart(5)} ms` : '';
  console.log(`  ${name.padEnd(60)} wall ${wall(name).toFixed(0).padStart(5)} ms${cpuText}`);
}

// The goals are wall times on a quiet machine; on a loaded one the CPU time is what the CLI costs.
const ADMIN = 'relay teams list';
const PUBLIC = 'relay public list-data-sources';
const verdicts = [
  { what: 'relay --help', wall: wall('relay --help'), cpu: cpu('relay --help'), goal: 500 },
  { what: `${ADMIN} beyond its round trip`, wall: wall(ADMIN) - wall(ADMIN_TRIP), cpu: cpu(ADMIN), goal: 1000 },
  { what: `${PUBLIC} beyond its round trip`, wall: wall(PUBLIC) - wall(PUBLIC_TRIP), cpu: cpu(PUBLIC), goal: 1000 },
];
const node = { wall: wall('node -e 0'), cpu: cpu('node -e 0') };
for (const v of verdicts) {
  const met = v.wall < v.goal ? 'met' : v.cpu < v.goal ? 'met in CPU time (the machine is loaded)' : 'NOT met';
  console.log(`  ${v.what}: wall ${v.wall.toFixed(0)} ms, cpu ${v.cpu.toFixed(0)} ms (node -e 0: ${node.wall.toFixed(0)} / ${node.cpu.toFixed(0)}); goal < ${v.goal} ms: ${met}`);
}
