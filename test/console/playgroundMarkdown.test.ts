// Console, chat playground: a grounded reply is shown as markdown (heading, list, code) through a
// sanitiser, so markup quoted from a synced row cannot run in the operator's browser.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi } from '../helpers/factories.ts';
import { createDataSource, syncAndWait } from '../datasources/support.ts';
import { browserPath, noBrowserReason, useConsoleBrowser } from './browser.ts';

const ROW = [
  '# Kettles',
  '<!-- YAML',
  'added: v1.0.0',
  '-->',
  '',
  'Quasar kettles boil water in **ninety seconds**. <img src="x" onerror="window.__pwned = true">',
  '',
  '* Fill to the line.',
  '* Press `boil`.',
].join('\n');

describe.skipIf(!browserPath)(`console: playground markdown${browserPath ? '' : ` (${noBrowserReason})`}`, () => {
  const rt = useTestRuntime();
  const ui = useConsoleBrowser(rt);
  beforeAll(async () => {
    const api = publicApi(rt, await createTenant({ bot: 'Kettle bot' }));
    const dataSourceId = await createDataSource(api);
    await api('post', '/data-sources/row', { dataSourceId, dataSourceRows: [{ name: 'kettles.md', content: ROW }] }).expect(200);
    expect((await syncAndWait(api, dataSourceId)).state).toBe('synced');
  });

  it('renders the reply as sanitised markdown', async () => {
    const { page } = ui;
    await ui.signIn();
    await page.getByRole('link', { name: 'Chat playground' }).click();
    await page.getByText('for the public API').waitFor();
    await page.getByPlaceholder('Ask the bot…').fill('How fast do quasar kettles boil?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached' });
    const reply = page.locator('.turn.assistant').last().locator('.markdown');
    await reply.locator('li', { hasText: 'Press boil.' }).waitFor();
    await ui.screenshot('playground-markdown');

    expect(await reply.locator('strong', { hasText: 'Kettles' }).count()).toBe(1);
    expect(await reply.locator('code', { hasText: 'boil' }).count()).toBe(1);
    expect(await reply.locator('em', { hasText: 'Source: kettles.md' }).count()).toBe(1);
    const text = (await reply.textContent()) ?? '';
    expect(text).not.toMatch(/<!--|YAML|\*\*/);
    // The image survives as an image, its handler does not.
    expect(await reply.locator('img').count()).toBe(1);
    expect(await reply.locator('img').getAttribute('onerror')).toBeNull();
    expect(await page.evaluate('window.__pwned === true')).toBe(false);
  });
});
