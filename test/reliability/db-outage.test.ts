// A database outage under traffic: requests fail fast with 503 and a clear error, the process
// stays up, and it recovers without a restart once the database is back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFerretDb, type EmbeddedDb } from '../../src/db/ferretdb.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { createApp } from '../../src/app.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { provisionTenant } from '../../src/platform/service.ts';
import { testConfig, waitFor } from '../helpers/harness.ts';

describe('database outage', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-outage-'));
  let db: EmbeddedDb;
  let runtime: Runtime;
  let http: () => ReturnType<typeof request>;

  beforeAll(async () => {
    db = await startFerretDb({ dataDir: dir, database: 'outage' });
    const config = testConfig({}, db.uri);
    runtime = await createRuntime({ config, logger: createLogger('silent'), uri: db.uri });
    await runtime.startWorker();
    const callback = createApp(runtime.ctx, runtime.modules).callback();
    http = () => request(callback);
  });
  afterAll(async () => {
    await runtime?.shutdown().catch(() => undefined);
    await db?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 while the database is down and serves again after it returns', async () => {
    const tenant = await provisionTenant();
    const call = () => http().post(`/api/public/channels/${tenant.channelId}/2.0/data-sources/list`).set('X-API-Secret-Key', tenant.secretKey).send({});
    expect((await call()).status).toBe(200);

    await db.stop();
    const during = await Promise.all([call(), call(), call()]);
    for (const res of during) {
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ success: false, code: 'database_unavailable' });
    }
    const ready = await http().get('/readyz');
    expect(ready.status).toBe(503);
    expect((await http().get('/healthz')).status).toBe(200);

    db = await startFerretDb({ dataDir: dir, port: db.port, database: 'outage' });
    await waitFor(async () => (await call()).status === 200, 30_000);
    expect((await http().get('/readyz')).status).toBe(200);
  });
});
