// The service as a process: roles, health, and a clean exit on SIGTERM.
import { describe, expect, it } from 'vitest';
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
});
