// `relay --help` and --help on every command: each command and subcommand has a description and
// help text, walked in-process from the same command tree the CLI runs (src/cli/program.ts).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.ts';

const run = promisify(execFile);
const relay = (...args: string[]) => run('node', ['bin/relay.js', ...args], { env: { ...process.env, LOG_LEVEL: 'silent' } });

function walk(command: Command, trail: string[] = []): Array<{ path: string[]; command: Command }> {
  return command.commands.flatMap((sub) => [{ path: [...trail, sub.name()], command: sub }, ...walk(sub, [...trail, sub.name()])]);
}

// Several CLI processes a test: a bound for a machine under heavy load (one call can take 10 s there), not a speed check.
describe('relay --help', { timeout: 240_000 }, () => {
  it('prints the version and the top-level help as a process', async () => {
    expect((await relay('--version')).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const { stdout } = await relay('--help');
    expect(stdout).toContain('Usage: relay');
    expect(stdout).toContain('JSON');
    for (const name of ['db', 'bootstrap', 'teams', 'bots', 'channels']) expect(stdout).toContain(`  ${name}`);
  });

  it('gives every command and subcommand a description and its own help', async () => {
    const commands = walk(await buildProgram());
    expect(commands.length).toBeGreaterThan(10);
    for (const { path, command } of commands) {
      const name = `relay ${path.join(' ')}`;
      expect(command.description(), name).not.toBe('');
      const help = command.helpInformation();
      expect(help, name).toContain(`Usage: ${name}`);
      expect(help, name).toContain('-h, --help');
      for (const option of command.options) expect(option.description, `${name} ${option.flags}`).not.toBe('');
    }
  });

  it('answers --help and a server command without loading the database driver, the AI SDK or the rule engine', async () => {
    // A loader hook that refuses the heavy packages: loading one makes the command fail.
    const hook = `export async function resolve(s, c, next) { if (/^(mongoose|mongodb|ai|jsonata|koa|@ai-sdk\\/.*)$/.test(s)) throw new Error('loaded ' + s); return next(s, c); }`;
    const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
    const guarded = (...args: string[]) =>
      run('node', ['--import', `data:text/javascript,${encodeURIComponent(register)}`, 'bin/relay.js', ...args], {
        env: { ...process.env, LOG_LEVEL: 'silent', RELAY_URL: 'http://127.0.0.1:9', ADMIN_TOKEN: 'x'.repeat(32) },
      }).catch((e) => e);
    expect((await guarded('--help')).stdout).toContain('Usage: relay');
    // No server answers on port 9: the call fails on the connection, not on a refused import.
    const listed = await guarded('teams', 'list');
    expect(listed.stderr).not.toContain('loaded ');
    expect(listed.stderr).toContain('no Relay server answers at http://127.0.0.1:9');
    // The guard itself works: a command that needs the database driver is stopped by it. Node
    // resolves a module's imports concurrently, so either driver package may be refused first.
    expect((await guarded('bootstrap')).stderr).toMatch(/loaded (mongoose|mongodb)\n/);
  });

  it('fails with a clear message and exit code 1 on an unknown command or a missing argument', async () => {
    const unknown = await relay('no-such-command').catch((e) => e);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("unknown command 'no-such-command'");
    const missing = await relay('channels', 'rotate').catch((e) => e);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("missing required argument 'channelId'");
  });
});
