// The OpenAPI document's examples and statuses are real: every operation is called against the
// real app (FerretDB, a real HTTP sink, deliveries signed by the providers' own libraries) and
// what it answered must be what src/openapi/recordedExamples.ts holds, up to ids, times and
// signatures (support/normalize.ts). After a deliberate change of the API, record again with
//   OPENAPI_RECORD=1 npx vitest run test/openapi/examples.test.ts
// The served document must then show those examples, with exact success statuses, real error
// codes per status, and nothing the reference page would have to make up.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN, useTestRuntime } from '../helpers/harness.ts';
import { modulesWithGateway } from '../gateway/support/runtime.ts';
import { startSink, type Sink } from '../gateway/support/servers.ts';
import { RECORDED_EXAMPLES } from '../../src/openapi/recordedExamples.ts';
import { ERROR_STATUS } from '../../src/http/errors.ts';
import { ALL_RESPONSE_SCHEMAS } from '../../src/openapi/document.ts';
import { Recorder } from './support/recorder.ts';
import { walkApi } from './support/walkApi.ts';
import { walkGateway, walkGatewayFiles } from './support/walkGateway.ts';
import { walkRefusals } from './support/walkRefusals.ts';
import { normalize, withPlaceholderSecrets } from './support/normalize.ts';

const RECORD = process.env.OPENAPI_RECORD === '1';
const FILE = fileURLToPath(new URL('../../src/openapi/recordedExamples.ts', import.meta.url));
const files = walkGatewayFiles();
/** Answers that are not JSON: no example to record. */
const NOT_JSON = new Set(['get /metrics', 'get /openapi.json', 'get /docs', 'get /docs/{file}', 'get /', 'get /console', 'get /console/{file}', 'get /favicon.ico']);

type Operation = { key: string; path: string; method: string; op: any };
const operationsOf = (doc: any): Operation[] =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ key: `${method} ${path}`, path, method, op })));

describe('OpenAPI examples, recorded from the real API', () => {
  const rt = useTestRuntime({ env: files.env, ...modulesWithGateway() });
  let sink: Sink;
  let doc: any;
  beforeAll(async () => {
    sink = await startSink();
    doc = (await rt.http().get('/openapi.json').expect(200)).body;
  });
  afterAll(() => sink?.close());

  it('every operation still answers what is recorded', { timeout: 300_000 }, async () => {
    const r = new Recorder(rt);
    await r.call({ key: 'get /healthz', url: '/healthz', summary: 'The process answers', status: 200 });
    await r.call({ key: 'get /readyz', url: '/readyz', summary: 'Ready', status: 200 });
    await walkApi(r, sink);
    await walkGateway(r, { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
    await walkRefusals(r, doc);

    const json = operationsOf(doc).filter(({ key }) => !NOT_JSON.has(key));
    const unwalked = json.filter(({ key }) => !(r.exchanges[key] ?? []).some((e) => e.status < 300)).map(({ key }) => key);
    expect(unwalked, 'operations the walk never called successfully (add them to test/openapi/support/walk*.ts)').toEqual([]);
    if (RECORD) {
      const header = fs.readFileSync(FILE, 'utf8').split('export const RECORDED_EXAMPLES')[0];
      fs.writeFileSync(FILE, `${header}export const RECORDED_EXAMPLES: RecordedExamples = ${withPlaceholderSecrets(JSON.stringify(r.exchanges, null, 2))};\n`);
      return;
    }
    expect(Object.keys(r.exchanges).sort(), 'the operations recorded').toEqual(Object.keys(RECORDED_EXAMPLES).sort());
    for (const [key, exchanges] of Object.entries(r.exchanges)) {
      const hint = `${key} answers otherwise than recorded; if the API changed on purpose, record again (OPENAPI_RECORD=1)`;
      expect(normalize(exchanges), hint).toEqual(normalize(RECORDED_EXAMPLES[key]));
    }
  });

  describe.skipIf(RECORD)('the served document', () => {
    it('shows a recorded request and answer on every JSON operation, under the status it was answered with', () => {
      for (const { key, op } of operationsOf(doc)) {
        expect(Object.keys(op.responses).filter((s) => /X/.test(s)), key).toEqual([]);
        if (NOT_JSON.has(key)) continue;
        const recorded = RECORDED_EXAMPLES[key] ?? [];
        const successes = [...new Set(recorded.filter((e) => e.status < 300).map((e) => String(e.status)))].sort();
        expect(Object.keys(op.responses).filter((s) => s.startsWith('2')), key).toEqual(successes);
        for (const status of successes) {
          const shown = Object.values(op.responses[status].content['application/json'].examples).map((e: any) => e.value);
          expect(shown, `${key} ${status}`).toEqual(recorded.filter((e) => String(e.status) === status).map((e) => e.response));
          // The answer fits the documented strict schema.
          for (const value of shown) expect(ALL_RESPONSE_SCHEMAS[key]?.safeParse(value).success ?? true, `${key}: ${JSON.stringify(value).slice(0, 300)}`).toBe(true);
        }
        const body = op.requestBody?.content?.['application/json'];
        if (op.requestBody?.required && body) expect(Object.keys(body.examples ?? {}).length, `${key}: a request example`).toBeGreaterThan(0);
      }
    });

    it('shows only real error codes: each example of a status carries a code of that status, recorded from the API', () => {
      const recordedErrors = Object.values(RECORDED_EXAMPLES).flatMap((list) => list.filter((e) => e.status >= 400).map((e) => JSON.stringify(e.response)));
      const examples: Array<{ where: string; status: string; value: any }> = [];
      for (const { key, op } of operationsOf(doc)) {
        for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
          const resolved = response.$ref ? doc.components.responses[response.$ref.split('/').pop()] : response;
          const content = resolved.content?.['application/json'];
          for (const example of Object.values(content?.examples ?? {}) as any[]) if (Number(status) >= 400) examples.push({ where: `${key} ${status}`, status, value: example.value });
          if (Number(status) >= 400 && status !== 'default') {
            const codes = doc.components.schemas[content.schema.$ref.split('/').pop()].properties.code.enum as string[];
            expect(codes.length, key).toBeGreaterThan(0);
            for (const code of codes) expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], `${key} ${status} lists ${code}`).toBe(Number(status));
          }
        }
      }
      expect(examples.length).toBeGreaterThan(100);
      for (const { where, status, value } of examples) {
        expect(ERROR_STATUS[value.code as keyof typeof ERROR_STATUS], `${where}: ${value.code}`).toBe(Number(status));
        expect(recordedErrors, where).toContain(JSON.stringify(value));
      }
    });

    it('documents 415 on every JSON body, 429 where a limit or a running sync refuses, and each admin 401 and public 403', () => {
      const P = '/api/public/channels/{channelId}/{version}';
      for (const { key, path, method, op } of operationsOf(doc)) {
        if (path.startsWith('/api/') && !path.startsWith('/api/public/hooks/') && ['post', 'put', 'patch', 'delete'].includes(method)) expect(op.responses, key).toHaveProperty('415');
        if (path.startsWith('/api/admin/')) expect(op.responses['401']?.content?.['application/json'].examples, key).toBeDefined();
        if (path.startsWith(P)) expect(op.responses['403']?.content?.['application/json'].examples, key).toBeDefined();
      }
      const sync = doc.paths[`${P}/data-sources/sync`].post.responses['429'];
      expect(Object.values(sync.content['application/json'].examples).map((e: any) => e.value.code)).toEqual(['storage_tokens_exhausted']);
      expect(doc.components.schemas.Error429.properties.code.enum).toContain('already_syncing');
      for (const path of ['conversation', 'message', 'data-sources']) expect(doc.paths[`${P}/${path}`].post.responses, path).toHaveProperty('429');
    });
  });
});
