// A bench part in a process of its own (an instance, the sink, the paced intake), asked and answered
// over IPC: each answer is the first message holding the asked key.
import path from 'node:path';
import { fork } from 'node:child_process';

export function child(file: string, args: string[], env: NodeJS.ProcessEnv = {}, nodeArgs: string[] = []) {
  const proc = fork(file, args, { execArgv: ['--import', 'tsx', ...nodeArgs], env: { ...process.env, ...env } });
  const next = <T>(key: string) =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`${path.basename(file)} exited (${code}) before answering ${key}`));
      const on = (msg: Record<string, unknown>) => {
        if (!(key in msg)) return;
        proc.off('message', on);
        proc.off('exit', onExit);
        resolve(msg[key] as T);
      };
      proc.on('message', on);
      proc.once('exit', onExit);
    });
  return {
    proc,
    next,
    ask: <T>(msg: object, key: string) => {
      const answer = next<T>(key);
      proc.send(msg);
      return answer;
    },
    close: () => new Promise<void>((resolve) => (proc.exitCode !== null ? resolve() : (proc.once('exit', () => resolve()), proc.send({ close: true })))),
  };
}
