// CPU time of a process tree from /proc (Linux): load-independent where wall time is not.
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
