// `relay gateway check | dry-run | send` as real processes.
import { execFile } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayFiles } from './support/gatewayFiles.ts';
import { startSink, type Sink } from './support/servers.ts';
import { hmacHeader } from './support/signing.ts';

const run = promisify(execFile);
const relay = (args: string[], env: Record<string, string> = {}) =>
  run('node', ['--import', 'tsx', 'src/cli/main.ts', 'gateway', ...args], { env: { ...process.env, LOG_LEVEL: 'silent', ...env } }).catch((err) => err);

describe('relay gateway CLI', () => {
  let sink: Sink;
  beforeAll(async () => {
    sink = await startSink(() => ({ status: 202, body: { success: true, duplicate: false } }));
  });
  afterAll(() => sink?.close());

  it('checks the shipped rules, and exits 1 naming a broken file', async () => {
    const ok = await relay(['check', '--dir', 'rules']);
    expect(JSON.parse(ok.stdout).rules).toHaveLength(readdirSync('rules').filter((n) => !n.endsWith('.test.json')).length);
    const files = gatewayFiles({ sources: {} }, { 'bad.json': { name: 'bad', when: '(', actions: [{ type: 'log', message: "'x'" }] } });
    const bad = await relay(['check', '--dir', files.rulesDir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/bad\.json \(rule bad\): when:/);
  });

  it('warns about a rule for a source GATEWAY_CONFIG does not define, in gateway check and rules check', async () => {
    const files = gatewayFiles({ sources: {} }, { 'pay.json': { name: 'pay', sources: ['stripe'], actions: [{ type: 'log', message: "'x'" }] } });
    for (const command of ['gateway', 'rules']) {
      const res = await run('node', ['bin/relay.js', command, 'check', '--dir', files.rulesDir], { env: { ...process.env, LOG_LEVEL: 'silent', GATEWAY_CONFIG: files.configFile } }).catch((err) => err);
      expect(res.code ?? 0).toBe(0);
      expect(res.stderr).toContain(`warning: ${files.rulesDir}/pay.json (rule pay): source "stripe" is not configured in GATEWAY_CONFIG`);
      expect(JSON.parse(res.stdout).warnings).toEqual([{ file: `${files.rulesDir}/pay.json`, rule: 'pay', source: 'stripe', message: 'source "stripe" is not configured in GATEWAY_CONFIG' }]);
    }
  });

  it('names the event file when it is not a JSON object, in dry-run and send', async () => {
    const files = gatewayFiles({ sources: {} }, {});
    const broken = `${files.root}/broken-event.json`;
    writeFileSync(broken, '{"event": "sync.failure",');
    const dry = await relay(['dry-run', '--event', broken, '--dir', 'rules']);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toContain(`relay: ${broken} is not valid JSON: `);
    const send = await relay(['send', '--url', `${sink.url}/gateway/x`, '--secret', 's', '--event', broken]);
    expect(send.code).toBe(1);
    expect(send.stderr).toContain(`relay: ${broken} is not valid JSON: `);
    writeFileSync(broken, '[1, 2]');
    expect((await relay(['dry-run', '--event', broken, '--dir', 'rules'])).stderr).toContain(`relay: ${broken} must hold a JSON object`);
  });

  it('dry-runs a sample event and prints the actions without running them', async () => {
    const res = await relay(['dry-run', '--event', 'test/fixtures/gateway/sync.failure.json', '--dir', 'rules', '--source', 'relay']);
    const out = JSON.parse(res.stdout);
    expect(out.event).toBe('sync.failure');
    expect(out.rules[0].actions.map((a: { type: string }) => a.type)).toEqual(['resync', 'log']);
    expect(out.rules[0].actions[0].spec).toEqual({ dataSource: 'Product catalog', dataSourceId: null, via: 'state' });
  });

  it('signs the exact bytes it sends', async () => {
    const res = await relay(['send', '--url', `${sink.url}/gateway/relay`, '--secret', 's3cret', '--event', 'test/fixtures/gateway/conversation.started.json']);
    expect(JSON.parse(res.stdout)).toMatchObject({ status: 202, deliveryId: '1d2c3b4a-5f6e-4d7c-8b9a-0f1e2d3c4b5a' });
    const req = sink.requests.at(-1)!;
    expect(req.headers['x-service-signature']).toBe(hmacHeader(req.body, 's3cret'));
    expect(req.headers['x-service-event']).toBe('conversation.started');
    expect(req.headers['x-service-delivery-id']).toBe(JSON.parse(req.body).deliveryId);
  });
});
