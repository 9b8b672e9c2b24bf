// The service as a process: roles, health, and a clean exit on SIGTERM.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { databaseUri, uniqueDatabaseName } from '../helpers/harness.ts';
import { startServiceProcess } from '../helpers/process.ts';

describe('relay process', () => {
  const uri = databaseUri(uniqueDatabaseName());

  it('serves HTTP in the api role and exits 0 on SIGTERM', async () => {
    const svc = startServiceProcess({ MONGODB_URI: uri, ROLE: 'api' });
    const line = await svc.waitForLog((l) => typeof l.port === 'number');
    const res = await fetch(`http://127.0.0.1:${line.port}/healthz`);
    expect(await res.json()).toEqual({ success: true, status: 'ok' });
    expect(svc.logs.some((l) => l.msg === 'relay: worker processing jobs')).toBe(false);
    svc.child.kill('SIGTERM');
    expect(await svc.exited).toBe(0);
  });

  it('processes jobs without listening in the worker role', async () => {
    const svc = startServiceProcess({ MONGODB_URI: uri, ROLE: 'worker' });
    await svc.waitForLog((l) => l.msg === 'relay: worker processing jobs');
    expect(svc.logs.some((l) => typeof l.port === 'number')).toBe(false);
    svc.child.kill('SIGTERM');
    expect(await svc.exited).toBe(0);
  });

  it('exits 1 with a message naming the variable on bad configuration', async () => {
    const svc = startServiceProcess({ MONGODB_URI: uri, JOB_LOCK_LIFETIME_MS: '5000' });
    expect(await svc.exited).toBe(1);
  });

  it('keeps a generated admin token in DATA_DIR on the embedded default, never logs it, and reuses it on restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-admin-token-'));
    // The embedded default reuses a database already listening on EMBEDDED_DB_PORT: the suite's own.
    const env = { MONGODB_URI: '', ADMIN_TOKEN: '', DATA_DIR: dataDir, EMBEDDED_DB_PORT: new URL(inject('mongoBaseUri')).port, ROLE: 'api' };
    const first = startServiceProcess(env);
    const line = await first.waitForLog((l) => typeof l.port === 'number');
    const token = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    expect((fs.statSync(path.join(dataDir, 'admin-token')).mode & 0o777).toString(8)).toBe('600');
    const teams = (auth?: string) => fetch(`http://127.0.0.1:${line.port}/api/admin/teams`, { headers: auth ? { authorization: `Bearer ${auth}` } : {} });
    expect((await teams(token)).status).toBe(200);
    expect((await teams('not-the-token-0123456789')).status).toBe(401);
    expect(JSON.stringify(first.logs)).not.toContain(token);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = startServiceProcess(env);
    await second.waitForLog((l) => typeof l.port === 'number');
    expect(fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim()).toBe(token);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
