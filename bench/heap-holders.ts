// What a heap snapshot holds (issue 17: the API process's heap at full size): each object's retained
// size from the dominator tree (Cooper, Harvey and Kennedy's iterative algorithm over non-weak edges),
// the largest holders with a path from the roots, and self size by constructor. Figures are bytes as
// V8 counts them, so they do not depend on the machine's load.
//
//   node --import tsx bench/heap-holders.ts FILE.heapsnapshot [--top 40]
//   (take one with `node --heapsnapshot-signal=SIGUSR2 ...` and `kill -USR2 PID`, or
//    BENCH_INSTANCE_NODE_ARGS=--heapsnapshot-signal=SIGUSR2 for bench/scale.ts's instances)
import fs from 'node:fs';
import { flag } from './lib/args.ts';

const file = process.argv[2];
if (!file || file.startsWith('--')) throw new Error('usage: heap-holders.ts FILE.heapsnapshot [--top N]');
const TOP = Number(flag('top') ?? 40);

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] }; node_count: number };
  nodes: number[];
  edges: number[];
  strings: string[];
}
const snap = JSON.parse(fs.readFileSync(file, 'utf8')) as Snapshot;
const { meta } = snap.snapshot;
const NF = meta.node_fields.length;
const EF = meta.edge_fields.length;
const [nType, nName, nSelf, nEdges] = ['type', 'name', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f)) as [number, number, number, number];
const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f)) as [number, number, number];
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const WEAK = edgeTypes.indexOf('weak');
const SHORTCUT = edgeTypes.indexOf('shortcut');
const N = snap.nodes.length / NF;

const firstEdge = new Uint32Array(N + 1);
for (let i = 0, e = 0; i < N; i++) {
  firstEdge[i] = e;
  e += snap.nodes[i * NF + nEdges]! * EF;
  firstEdge[i + 1] = e;
}
const followed = (e: number) => snap.edges[e + eType] !== WEAK && snap.edges[e + eType] !== SHORTCUT;

// Postorder by an iterative DFS from the root (node 0), and each node's first parent.
const order = new Int32Array(N).fill(-1); // postorder number
const post: number[] = [];
const parentInTree = new Int32Array(N).fill(-1);
const parentEdge = new Int32Array(N).fill(-1);
{
  const stack: number[] = [0];
  const cursor = new Uint32Array(N);
  const seen = new Uint8Array(N);
  seen[0] = 1;
  for (let i = 0; i < N; i++) cursor[i] = firstEdge[i]!;
  while (stack.length) {
    const v = stack[stack.length - 1]!;
    let pushed = false;
    while (cursor[v]! < firstEdge[v + 1]!) {
      const e = cursor[v]!;
      cursor[v] = e + EF;
      if (!followed(e)) continue;
      const w = snap.edges[e + eTo]! / NF;
      if (seen[w]) continue;
      seen[w] = 1;
      parentInTree[w] = v;
      parentEdge[w] = e;
      stack.push(w);
      pushed = true;
      break;
    }
    if (!pushed) {
      order[v] = post.length;
      post.push(v);
      stack.pop();
    }
  }
}
// Predecessors of each reachable node.
const predCount = new Uint32Array(N + 1);
for (let v = 0; v < N; v++) {
  if (order[v]! < 0) continue;
  for (let e = firstEdge[v]!; e < firstEdge[v + 1]!; e += EF) if (followed(e)) predCount[snap.edges[e + eTo]! / NF + 1]!++;
}
for (let i = 0; i < N; i++) predCount[i + 1]! += predCount[i]!;
const preds = new Int32Array(predCount[N]!);
{
  const fill = predCount.slice(0, N);
  for (let v = 0; v < N; v++) {
    if (order[v]! < 0) continue;
    for (let e = firstEdge[v]!; e < firstEdge[v + 1]!; e += EF) if (followed(e)) preds[fill[snap.edges[e + eTo]! / NF]!++] = v;
  }
}
const idom = new Int32Array(N).fill(-1);
idom[0] = 0;
const intersect = (a: number, b: number) => {
  while (a !== b) {
    while (order[a]! < order[b]!) a = idom[a]!;
    while (order[b]! < order[a]!) b = idom[b]!;
  }
  return a;
};
for (let changed = true; changed; ) {
  changed = false;
  for (let i = post.length - 2; i >= 0; i--) {
    const v = post[i]!;
    let nd = -1;
    for (let p = predCount[v]!; p < predCount[v + 1]!; p++) {
      const u = preds[p]!;
      if (idom[u]! < 0) continue;
      nd = nd < 0 ? u : intersect(u, nd);
    }
    if (nd >= 0 && idom[v] !== nd) {
      idom[v] = nd;
      changed = true;
    }
  }
}
const retained = new Float64Array(N);
for (const v of post) {
  retained[v]! += snap.nodes[v * NF + nSelf]!;
  if (v !== 0) retained[idom[v]!]! += retained[v]!;
}

const name = (v: number) => `${nodeTypes[snap.nodes[v * NF + nType]!]}:${snap.strings[snap.nodes[v * NF + nName]!]!.slice(0, 60)}`;
const edgeName = (e: number) => {
  const t = edgeTypes[snap.edges[e + eType]!];
  const n = snap.edges[e + eName]!;
  return t === 'element' || t === 'hidden' ? `[${n}]` : String(snap.strings[n]).slice(0, 40);
};
const pathTo = (v: number) => {
  const parts: string[] = [];
  for (let w = v; w > 0 && parts.length < 8; w = parentInTree[w]!) parts.unshift(`${edgeName(parentEdge[w]!)}`);
  return parts.join('.');
};
const MiB = (b: number) => (b / 2 ** 20).toFixed(2);

let total = 0;
for (const v of post) total += snap.nodes[v * NF + nSelf]!;
console.log(`${file}: ${N} nodes, reachable ${post.length}, ${MiB(total)} MiB reachable self size`);

// Largest holders: nodes whose retained size is large but whose dominator's is spread over children.
const candidates = post.filter((v) => v !== 0 && retained[v]! > total / 200).sort((a, b) => retained[b]! - retained[a]!);
console.log(`\n| retained MiB | object | path from the roots |\n| --- | --- | --- |`);
for (const v of candidates.slice(0, TOP)) console.log(`| ${MiB(retained[v]!)} | ${name(v)} | ${pathTo(v)} |`);

// Strings by what first reaches them (most heaps are mostly strings: source code, keys, texts).
const stringsBy = new Map<string, { self: number; count: number }>();
for (const v of post) {
  const t = nodeTypes[snap.nodes[v * NF + nType]!];
  if (t !== 'string' && t !== 'concatenated string' && t !== 'sliced string') continue;
  const holder = parentInTree[v]! >= 0 ? `${name(parentInTree[v]!).slice(0, 50)} .${edgeName(parentEdge[v]!).replace(/^\[\d+\]$/, '[n]')}` : '?';
  const entry = stringsBy.get(holder) ?? { self: 0, count: 0 };
  entry.self += snap.nodes[v * NF + nSelf]!;
  entry.count++;
  stringsBy.set(holder, entry);
}
console.log(`\n| string MiB | count | first held by |\n| --- | --- | --- |`);
for (const [k, s] of [...stringsBy].sort((a, b) => b[1].self - a[1].self).slice(0, TOP / 2)) console.log(`| ${MiB(s.self)} | ${s.count} | ${k.replace(/\|/g, '/').replace(/\n/g, ' ')} |`);

const byCtor = new Map<string, { self: number; count: number }>();
for (const v of post) {
  const key = name(v).slice(0, 50);
  const k = nodeTypes[snap.nodes[v * NF + nType]!] === 'string' || nodeTypes[snap.nodes[v * NF + nType]!] === 'concatenated string' ? 'string (all)' : key;
  const entry = byCtor.get(k) ?? { self: 0, count: 0 };
  entry.self += snap.nodes[v * NF + nSelf]!;
  entry.count++;
  byCtor.set(k, entry);
}
console.log(`\n| self MiB | count | type:name |\n| --- | --- | --- |`);
for (const [k, s] of [...byCtor].sort((a, b) => b[1].self - a[1].self).slice(0, TOP)) console.log(`| ${MiB(s.self)} | ${s.count} | ${k} |`);
