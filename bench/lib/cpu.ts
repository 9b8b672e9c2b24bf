// CPU time of a process tree from /proc (Linux): load-independent where wall time is not. No
// imports of src/, so a bench that loads another tree's src (bench/lists.ts --code) can use it.
import fs from 'node:fs';

/** User + system CPU of a process and its descendants now running, from /proc (Linux). */
export function processTreeCpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    // Fields after the command name; utime and stime are the 12th and 13th, in clock ticks (100/s).
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    return (Number(fields[11]) + Number(fields[12])) * 10 + children.reduce((sum, child) => sum + processTreeCpuMs(child), 0);
  } catch {
    return 0;
  }
}

/**
 * CPU of every thread of a process and its descendants, in ms with nanosecond resolution
 * (/proc/PID/task/TID/schedstat's run time): fine enough for one request, where /proc/PID/stat's
 * 10 ms ticks are not.
 */
export function processThreadsCpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  let ms = 0;
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      ms += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
    }
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    for (const child of children) ms += processThreadsCpuMs(child);
  } catch {
    // a thread or process that ended between the listing and the read: its time is lost either way
  }
  return ms;
}

/**
 * A stage table's row writer: `stage(label, fn)` calls `fn` 20 times untimed, then `calls` times, and
 * writes the CPU per call of this process and of the database (`dbCpuMs`), and how much `counted()`
 * grew per call (commands sent, say); an HTTP stage's last result is its body's bytes.
 */
export function stageTimer(calls: number, dbCpuMs: () => number, counted: () => number, digits = 3) {
  const per = (ms: number) => (ms / calls).toFixed(digits);
  return async (label: string, fn: () => unknown): Promise<void> => {
    for (let i = 0; i < 20; i++) await fn();
    const [node, db, before] = [process.cpuUsage(), dbCpuMs(), counted()];
    let result: unknown;
    for (let i = 0; i < calls; i++) result = await fn();
    const used = process.cpuUsage(node);
    const bytes = label.startsWith('HTTP') ? `, ${String(result)} bytes` : '';
    process.stdout.write(`| ${label} | ${per((used.user + used.system) / 1000)} | ${per(dbCpuMs() - db)} | ${(counted() - before) / calls}${bytes} |\n`);
  };
}
