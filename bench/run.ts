// `npm run bench` lists the maintained scenarios with the goal each guards; `npm run bench -- <name>
// [flags]` runs bench/<name>.ts, printing its goal first. The goals are declared here and nowhere else
// in bench/; docs/BENCHMARKS.md gives the command, the figures and the machine for each.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const GOALS: Record<string, string> = {
  scale:
    'a real install on the default database (1 bot of 100,000 rows, 300,000 webhook and 300,000 gateway deliveries, 500,000 messages): ' +
    'every list and get p99 < 50 ms for a big and a small tenant, the small one within 1.2x of a lone instance, sweeps < 1 s, ' +
    'sync start < 50 ms, 1 % re-sync < 5 s, API RSS < 1 GB',
  gateway: 'webhook intake >= 0.70x the req/s of a bare node:http + raw-driver server, p99 < 20 ms at half its peak; CPU per delivery',
  deliveries: 'outgoing webhooks >= 1,000 deliveries/s to a local sink, enqueue-to-first-attempt p50 < 50 ms',
  'webhook-lanes': "one endpoint that never answers leaves the other hooks' enqueue-to-first-attempt p50 < 50 ms",
  sync: 'a full sync of 10,000 rows of ~2 KB < 10 s and >= 0.50x the throughput of a raw insertMany of its chunks',
  chat: 'retrieval over 100,000 chunks p99 < 30 ms (with vectors < 60 ms), first SSE byte of a streamed answer < 50 ms',
  retrieval: "on each held-out corpus, recall at the passages the grounded answerer cites >= plain BM25@3 + 5 points, never below it; 'I don't know' on >= 70 % of unanswerable questions",
  edge: 'the public edge (Koa, channel auth) serves >= 0.90x the req/s of a bare node:http server doing the same key check',
  outbound: 'the guarded outbound client sends several times the 1,000/s the webhook goal needs, >= 0.50x plain undici',
  cli: '`relay --help` < 0.5 s; an admin or public command < 1 s beyond its HTTP round trip',
};

const dir = path.dirname(fileURLToPath(import.meta.url));
const present = new Set(fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'run.ts').map((f) => f.slice(0, -3)));
const name = process.argv[2];
if (!name || !GOALS[name] || !present.has(name)) {
  if (name) console.error(`relay bench: no maintained scenario "${name}"`);
  console.log('usage: npm run bench -- <scenario> [flags]\n\nscenario: the goal it guards (docs/BENCHMARKS.md)');
  for (const [scenario, goal] of Object.entries(GOALS)) if (present.has(scenario)) console.log(`  ${scenario.padEnd(14)} ${goal}`);
  const unlisted = [...present].filter((f) => !GOALS[f]);
  if (unlisted.length) console.log(`\nnot maintained (no goal here): ${unlisted.join(', ')}`);
  process.exit(name ? 1 : 0);
}
console.error(`relay bench: running ${name} (bounded; loopback only), goal: ${GOALS[name]}`);
await import(pathToFileURL(path.join(dir, `${name}.ts`)).href);
