// The `relay` CLI as a process, against the test database.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { relayCli, TEST_ADMIN_TOKEN, useListeningApp, useTestRuntime } from '../helpers/harness.ts';

const run = promisify(execFile);
// Several CLI processes a test: a bound for a machine under heavy load (one call can take 10 s there), not a speed check.
describe('relay CLI', { timeout: 240_000 }, () => {
  const rt = useTestRuntime({ worker: false });
  const server = useListeningApp(rt);
  const relay = relayCli(rt, server);

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

  it('refuses to bootstrap a second team of the same name, naming the first and the way on', async () => {
    const first = JSON.parse((await relay('bootstrap', '--team', 'Twice')).stdout);
    const again = await relay('bootstrap', '--team', 'Twice').catch((e) => e);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`A team named "Twice" already exists (${first.teamId})`);
    expect(again.stderr).toContain('--team');
    const { stdout } = await relay('teams', 'list');
    expect(JSON.parse(stdout).filter((t: { name: string }) => t.name === 'Twice')).toHaveLength(1);
  });

  it('reads .env from the working directory, with the environment winning over the file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-dotenv-'));
    fs.mkdirSync(path.join(dir, 'from-file'));
    fs.mkdirSync(path.join(dir, 'from-env'));
    fs.writeFileSync(path.join(dir, '.env'), 'RULES_DIR=./from-file\nLOG_LEVEL=silent\n');
    const bin = path.resolve('bin/relay.js');
    const { RULES_DIR: _unset, ...env } = process.env;
    const fromFile = await run('node', [bin, 'gateway', 'check'], { cwd: dir, env });
    expect(JSON.parse(fromFile.stdout).dir).toBe('./from-file');
    const fromEnv = await run('node', [bin, 'gateway', 'check'], { cwd: dir, env: { ...env, RULES_DIR: './from-env' } });
    expect(JSON.parse(fromEnv.stdout).dir).toBe('./from-env');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('finds the server from PORT and the admin token in DATA_DIR/admin-token when RELAY_URL and ADMIN_TOKEN are unset', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-cli-token-'));
    fs.writeFileSync(path.join(dir, 'admin-token'), `${TEST_ADMIN_TOKEN}\n`);
    const port = new URL(server.baseUrl).port;
    const local = { RELAY_URL: '', ADMIN_TOKEN: '', PORT: port, DATA_DIR: dir };
    const team = JSON.parse((await relay('teams', 'create', '--name', 'Local')).stdout);
    expect(JSON.parse((await relayCli(rt, server, local)('teams', 'list')).stdout)).toContainEqual(expect.objectContaining({ id: team.id }));
    // The public commands find the same server from PORT.
    const creds = JSON.parse((await relay('bootstrap', '--team', 'Local public')).stdout);
    const listed = await relayCli(rt, server, { ...local, RELAY_CHANNEL_ID: creds.channelId, RELAY_SECRET_KEY: creds.secretKey })('public', 'list-data-sources');
    expect(JSON.parse(listed.stdout)).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names the URL when no server answers, and the token file when there is no token', async () => {
    const down = await relayCli(rt, { baseUrl: 'http://127.0.0.1:9' })('teams', 'list').catch((e) => e);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('no Relay server answers at http://127.0.0.1:9');
    const noToken = await relayCli(rt, server, { ADMIN_TOKEN: '', DATA_DIR: '/nonexistent-relay' })('teams', 'list').catch((e) => e);
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toContain('no admin token: set ADMIN_TOKEN');
  });

  it('says --plan is required for set-plan', async () => {
    const missing = await relay('teams', 'set-plan', '00000000-0000-4000-8000-000000000000').catch((e) => e);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("required option '--plan <plan>' not specified");
  });

  it('sets a plan with overrides', async () => {
    const team = JSON.parse((await relay('teams', 'create', '--name', 'Plans')).stdout);
    const updated = JSON.parse((await relay('teams', 'set-plan', team.id, '--plan', 'pro', '--chat-tokens', '5')).stdout);
    expect(updated).toMatchObject({ plan: 'pro', limits: { chatTokens: 5, dataSourcesPerBot: 25 } });
  });

  it('exits non-zero with one clear line for an unknown team', async () => {
    await expect(relay('bots', 'create', '--team', '00000000-0000-4000-8000-000000000000', '--name', 'x')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^relay: 404 team_not_found: /),
    });
  });

  it('prints help for every subcommand', async () => {
    for (const cmd of [['teams'], ['bots'], ['channels'], ['bootstrap'], ['db']]) {
      const { stdout } = await relay(...cmd, '--help');
      expect(stdout).toMatch(/^Usage: relay /);
    }
  });
});
