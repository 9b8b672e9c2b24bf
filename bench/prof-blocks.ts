// Which work holds an instance's API event loop in its long blocks: lays the loop blocks that
// bench/conv-isolation.ts --blocks-out wrote beside the instance's --cpu-prof profile (both on the
// monotonic clock: a block's hrEnd, the profile's sample timestamps, in µs), and names, per block
// of --min ms or more, what its samples were running: idle, GC, and for the rest the Relay frames
// (src/) on the stack and the function at its top.
//
//   node --import tsx bench/prof-blocks.ts BLOCKS.json PROFILE_DIR [--side big] [--min 20] [--top 4]
import fs from 'node:fs';
import path from 'node:path';
import { flag, numberFlag } from './lib/args.ts';

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface Block {
  end: number;
  hrEnd: number;
  ms: number;
  cpuMs: number;
  gcMs: number;
  intakeIn?: number;
  intakeOut?: number;
  jobs?: Record<string, number>;
}

const [blocksFile, profileDir] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (!blocksFile || !profileDir) throw new Error('usage: bench/prof-blocks.ts BLOCKS.json PROFILE_DIR [--side big] [--min 20] [--top 4]');
const side = flag('side') ?? 'big';
const MIN = numberFlag('min', 20);
const TOP = numberFlag('top', 4);

const { pid, blocks } = (JSON.parse(fs.readFileSync(blocksFile, 'utf8')) as Record<string, { pid: number; blocks: Block[] }>)[side]!;
// Node names it CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile.
const file = fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile') && f.split('.')[3] === String(pid));
if (!file) throw new Error(`no profile of pid ${pid} in ${profileDir}`);
const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const short = (f: Frame) => {
  const at = f.url.indexOf('/src/');
  const where = at >= 0 ? f.url.slice(at + 1) : f.url.includes('node_modules/') ? f.url.slice(f.url.lastIndexOf('node_modules/') + 13).split('/').slice(0, 2).join('/') : path.basename(f.url);
  return `${f.functionName || '(anonymous)'}${where ? ` ${where}:${f.lineNumber + 1}` : ''}`;
};
/** The stack of a sample's node, root first. */
function stack(id: number): Frame[] {
  const out: Frame[] = [];
  for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) out.push(byId.get(n)!.callFrame);
  return out.reverse();
}
const times: number[] = [];
{
  let t = profile.startTime;
  for (const d of profile.timeDeltas) times.push((t += d));
}

type Tally = Map<string, number>;
const add = (m: Tally, k: string, v = 1) => m.set(k, (m.get(k) ?? 0) + v);
const top = (m: Tally, n: number, total: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${((v / total) * 100).toFixed(0)} % ${k}`);
const all = { leaf: new Map() as Tally, relay: new Map() as Tally, outer: new Map() as Tally, samples: 0 };
const long = blocks.filter((b) => b.ms >= MIN).sort((a, b) => a.hrEnd - b.hrEnd);
process.stdout.write(`${side} (pid ${pid}, ${file}): ${long.length} blocks of ${MIN} ms or more\n`);
for (const b of long) {
  const from = b.hrEnd - b.ms * 1000;
  const kinds = new Map() as Tally;
  const leaf = new Map() as Tally;
  const relay = new Map() as Tally;
  let n = 0;
  for (let i = 0; i < times.length; i++) {
    if (times[i]! < from || times[i]! > b.hrEnd) continue;
    n++;
    const frames = stack(profile.samples[i]!);
    const name = frames.at(-1)!.functionName;
    if (name === '(idle)' || name === '(garbage collector)' || name === '(program)') {
      add(kinds, name);
      continue;
    }
    add(kinds, 'JS');
    add(leaf, short(frames.at(-1)!));
    add(all.leaf, short(frames.at(-1)!));
    // The Relay frames on the stack, outermost to innermost: which task this is.
    const ours = frames.filter((f) => f.url.includes('/src/')).map(short);
    const sig = ours.length ? ours.slice(0, 2).join(' > ') + (ours.length > 2 ? ` … ${ours.at(-1)}` : '') : '(no Relay frame) ' + frames.slice(1, 4).map(short).join(' > ');
    add(relay, sig);
    add(all.relay, sig);
    add(all.outer, ours[0] ?? '(no Relay frame)');
    all.samples++;
  }
  process.stdout.write(
    `\nblock ${b.ms.toFixed(1)} ms (CPU ${b.cpuMs.toFixed(0)}, GC ${b.gcMs.toFixed(0)}) ending ${new Date(b.end).toISOString().slice(11, 23)}; intake in/answered ${b.intakeIn ?? '?'}/${b.intakeOut ?? '?'}, jobs ended ${JSON.stringify(b.jobs ?? {})}; ${n} samples, ` +
      `${[...kinds].map(([k, v]) => `${k} ${v}`).join(', ')}\n` +
      `  stacks: ${top(relay, TOP, n).join('\n          ')}\n` +
      `  top:    ${top(leaf, TOP, n).join('\n          ')}\n`,
  );
}
process.stdout.write(`\nover all ${long.length} blocks (${all.samples} JS samples):\n  outermost Relay frame:\n    ${top(all.outer, 12, all.samples).join('\n    ')}\n`);
process.stdout.write(`  stacks:\n    ${top(all.relay, 15, all.samples).join('\n    ')}\n  top of stack:\n    ${top(all.leaf, 15, all.samples).join('\n    ')}\n`);
