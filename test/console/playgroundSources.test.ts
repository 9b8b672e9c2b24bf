// Console, chat playground: a grounded reply names its sources (row and data source names, not a
// count), and a handoff to a human shows its message once, with a short note for the tool's result.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi } from '../helpers/factories.ts';
import { createDataSource, syncAndWait } from '../datasources/support.ts';
import { browserPath, noBrowserReason, useConsoleBrowser } from './browser.ts';

describe.skipIf(!browserPath)(`console: playground sources and handoff${browserPath ? '' : ` (${noBrowserReason})`}`, () => {
  const rt = useTestRuntime();
  const ui = useConsoleBrowser(rt);
  beforeAll(async () => {
    const tenant = await createTenant({ bot: 'Returns bot' });
    const api = publicApi(rt, tenant);
    const dataSourceId = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId, dataSourceRows: [{ name: 'returns.md', content: '# Returns\n\nZucchini blenders can be returned within 30 days.' }] }).expect(200);
    await adminApi(rt)('patch', `/bots/${tenant.botId}/data-sources/${dataSourceId}`, { name: 'Help center' }).expect(200);
    expect((await syncAndWait(api, dataSourceId)).state).toBe('synced');
  });

  it('names the sources of a reply and shows a handoff message once', async () => {
    const { page } = ui;
    await ui.signIn();
    await page.getByRole('link', { name: 'Chat playground' }).click();
    await page.getByText('for the public API').waitFor();

    await page.getByPlaceholder('Ask the bot…').fill('Can zucchini blenders be returned?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('sources').getByText('returns.md (Help center)').waitFor();
    await expect(page.getByTestId('sources').textContent()).resolves.toBe('sources: returns.md (Help center)');

    await page.getByPlaceholder('Ask the bot…').fill('I want to talk to a human, my email is ada@example.org');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached' });
    await expect(page.locator('.turn.tool').allTextContents()).resolves.toEqual([
      'tooluses human_handoff: {"reason":"The user asked for a human agent","email":"ada@example.org"}',
      'toolhanded to a human agent: Escalated, they will write to ada@example.org',
    ]);
    await expect(page.locator('.turn', { hasText: 'I have asked a human agent to join this conversation' }).count()).resolves.toBe(1);
    await ui.screenshot('playground-sources-handoff');
  });
});
