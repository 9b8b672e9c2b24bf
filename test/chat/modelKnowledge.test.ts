// The model answerer over synced knowledge: the passages the index returns for the message reach
// the model's system prompt, unsynced rows never do, and the reply reports the rows it drew on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { startOpenAIStub, type OpenAIStub } from '../helpers/openaiStub.ts';
import { createDataSource, rowIds, syncAndWait } from '../datasources/support.ts';

const env: Record<string, string> = { OPENAI_MODEL: 'stub-model', OPENAI_API_KEY: 'sk-stub' };
let stub: OpenAIStub;
beforeAll(async () => {
  stub = await startOpenAIStub();
  env.OPENAI_BASE_URL = stub.url;
});
afterAll(() => stub?.close());

const lastSystemPrompt = () => stub.requests.at(-1)!.messages.find((m) => m.role === 'system')?.content as string;

describe('a model answering from synced knowledge', () => {
  const rt = useTestRuntime({ env });
  let tenant: Tenant;
  let api: ReturnType<typeof publicApi>;
  let dataSourceId: string;

  beforeAll(async () => {
    tenant = await createTenant();
    api = publicApi(rt, tenant);
    dataSourceId = await createDataSource(api);
    await api('post', '/data-sources/row', {
      dataSourceId,
      dataSourceRows: [{ name: 'returns.md', content: '# Returns\n\nZucchini blenders can be returned within 30 days of delivery.' }],
    }).expect(200);
    expect((await syncAndWait(api, dataSourceId)).state).toBe('synced');
    // Added after the sync: the bot must not see it.
    await api('post', '/data-sources/row', {
      dataSourceId,
      dataSourceRows: [{ name: 'warranty.md', content: '# Warranty\n\nZucchini blenders carry a warranty of seven years.' }],
    }).expect(200);
  });

  it('puts the matching synced passage in the prompt, leaves the unsynced row out, and reports its source', async () => {
    stub.enqueue({ text: 'You have 30 days.' });
    const res = await api('post', '/message', { message: 'How long do I have to return a zucchini blender, and what warranty does it have?' }).expect(200);
    expect(res.body.response).toBe('You have 30 days.');

    const system = lastSystemPrompt();
    expect(system).toContain('Knowledge passages');
    expect(system).toContain('returned within 30 days of delivery');
    expect(system).not.toContain('seven years');

    const returnsId = (await rowIds(api, dataSourceId)).find((r) => r.name === 'returns.md')!.id;
    expect(res.body.sources).toEqual([{ rowId: returnsId, dataSourceId }]);
  });

  it('tells the model that nothing matched when no synced passage does', async () => {
    stub.enqueue({ text: 'I do not know.' });
    await api('post', '/message', { message: 'Which quasar kettles are on sale?' }).expect(200);
    const system = lastSystemPrompt();
    expect(system).not.toContain('Knowledge passages');
    expect(system).toContain('No knowledge passage matched');
  });
});
