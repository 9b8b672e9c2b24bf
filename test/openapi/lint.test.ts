// The OpenAPI document passes `redocly lint` with the recommended rules and no errors, offline
// (the CLI is a dev dependency; telemetry and update checks are off).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';

const run = promisify(execFile);

describe('OpenAPI lint', () => {
  // With PUBLIC_BASE_URL the document names that server (linted too: no trailing slash, no example.com).
  const rt = useTestRuntime({ worker: false, env: { PUBLIC_BASE_URL: 'https://relay.test.internal' } });

  it('has no errors under redocly recommended', { timeout: 60_000 }, async () => {
    const doc = (await rt.http().get('/openapi.json').expect(200)).body;
    expect(doc.servers).toEqual([{ url: 'https://relay.test.internal', description: 'This service' }]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-openapi-'));
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(doc));
    const result = await run('node_modules/.bin/redocly', ['lint', file, '--extends', 'recommended', '--format', 'json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((err) => err as { code: number; stdout: string; stderr: string });
    fs.rmSync(dir, { recursive: true, force: true });
    const report = JSON.parse(result.stdout) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }> };
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });
});
