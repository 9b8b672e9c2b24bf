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

describe('relay --help', () => {
  it('prints the version and the top-level help as a process', async () => {
    expect((await relay('--version')).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const { stdout } = await relay('--help');
    expect(stdout).toContain('Usage: relay');
    expect(stdout).toContain('JSON');
    for (const name of ['db', 'bootstrap', 'teams', 'bots', 'channels']) expect(stdout).toContain(`  ${name}`);
  });

  it('gives every command and subcommand a description and its own help', () => {
    const commands = walk(buildProgram());
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

  it('fails with a clear message and exit code 1 on an unknown command or a missing argument', async () => {
    const unknown = await relay('no-such-command').catch((e) => e);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("unknown command 'no-such-command'");
    const missing = await relay('channels', 'rotate').catch((e) => e);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("missing required argument 'channelId'");
  });
});
