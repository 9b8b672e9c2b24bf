// Starts `src/main.ts` as a real process for process-level tests and reads its JSON log lines.
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';

export interface ServiceProcess {
  child: ChildProcess;
  port?: number;
  logs: Array<Record<string, unknown>>;
  /** Everything written to stderr so far. */
  stderr(): string;
  waitForLog(predicate: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
}

/** `command`: how to start it (default `node --import tsx src/main.ts`; `['npm', 'start']` for the way users do). */
export function startServiceProcess(env: Record<string, string>, command: string[] = ['node', '--import', 'tsx', 'src/main.ts']): ServiceProcess {
  const child = spawn(command[0]!, command.slice(1), {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  const waiters = new Set<() => void>();
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      logs.push(JSON.parse(line));
    } catch {
      logs.push({ msg: line });
    }
    for (const w of waiters) w();
  });
  const stderr: string[] = [];
  child.stderr!.on('data', (d) => stderr.push(String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const svc: ServiceProcess = {
    child,
    logs,
    stderr: () => stderr.join(''),
    exited,
    waitForLog(predicate, timeoutMs = 90_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = logs.find(predicate);
          if (hit) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(hit);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`log line not seen within ${timeoutMs} ms; stderr: ${stderr.join('')}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
  return svc;
}
