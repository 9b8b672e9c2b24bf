// The `relay` CLI as a process, against the test database.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { databaseUri, uniqueDatabaseName } from '../helpers/harness.ts';

const run = promisify(execFile);
const uri = databaseUri(uniqueDatabaseName());

function relay(...args: string[]) {
  return run('node', ['bin/relay.js', ...args], { env: { ...process.env, MONGODB_URI: uri, LOG_LEVEL: 'silent' } });
}

describe('relay CLI', () => {
  it('bootstraps a tenant and prints usable credentials as JSON', async () => {
    const { stdout } = await relay('bootstrap', '--team', 'CLI team', '--bot', 'CLI bot');
    const creds = JSON.parse(stdout);
    expect(creds).toMatchObject({ teamId: expect.any(String), botId: expect.any(String), channelId: expect.any(String) });
    expect(creds.secretKey).toMatch(/^sk_/);
    const { stdout: listed } = await relay('channels', 'list', '--bot', creds.botId);
    expect(JSON.parse(listed)).toEqual([expect.objectContaining({ channelId: creds.channelId, enabled: true })]);
    const { stdout: rotated } = await relay('channels', 'rotate', creds.channelId);
    expect(JSON.parse(rotated).secretKey).not.toBe(creds.secretKey);
    const { stdout: off } = await relay('channels', 'disable', creds.channelId);
    expect(JSON.parse(off).enabled).toBe(false);
  });

  it('sets a plan with overrides', async () => {
    const team = JSON.parse((await relay('teams', 'create', '--name', 'Plans')).stdout);
    const updated = JSON.parse((await relay('teams', 'set-plan', team.id, '--plan', 'pro', '--chat-tokens', '5')).stdout);
    expect(updated).toMatchObject({ plan: 'pro', limits: { chatTokens: 5, dataSourcesPerBot: 25 } });
  });

  it('exits non-zero with one clear line for an unknown team', async () => {
    await expect(relay('bots', 'create', '--team', '00000000-0000-4000-8000-000000000000', '--name', 'x')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/team_not_found/),
    });
  });

  it('prints help for every subcommand', async () => {
    for (const cmd of [['teams'], ['bots'], ['channels'], ['bootstrap'], ['db']]) {
      const { stdout } = await relay(...cmd, '--help');
      expect(stdout).toMatch(/^Usage: relay /);
    }
  });
});
