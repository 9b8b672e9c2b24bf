// Console, data sources page: create a data source, upload a markdown file as a row, sync it and
// watch the state reach `synced`, then read the row back; all through the public API in a browser.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { browserPath, noBrowserReason, useConsoleBrowser } from './browser.ts';

describe.skipIf(!browserPath)(`console: data sources${browserPath ? '' : ` (${noBrowserReason})`}`, () => {
  const rt = useTestRuntime();
  const ui = useConsoleBrowser(rt);
  let tenant: Tenant;
  let markdownFile: string;
  beforeAll(async () => {
    tenant = await createTenant({ bot: 'Docs bot' });
    markdownFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'relay-md-')), 'returns.md');
    fs.writeFileSync(markdownFile, '# Returns\n\nYou can return any item within 30 days for a full refund.\n');
  });

  it('creates a data source, uploads a markdown row, syncs it, reads the row back and gets an answer from it', async () => {
    const { page } = ui;
    await ui.signIn();
    await page.getByRole('link', { name: 'Data sources' }).click();
    // The page makes the bot's console channel itself on the first visit, and calls the public API as it.
    await page.getByLabel('Channel', { exact: true }).locator('option:checked', { hasText: /^console$/ }).waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'New data source' }).click();
    await page.getByRole('heading', { name: /^Rows of / }).waitFor();

    await page.locator('input[type=file]').setInputFiles(markdownFile);
    const row = page.locator('tr[data-row="returns.md"]');
    await row.waitFor();
    await page.getByLabel('Name', { exact: true }).fill('faq');
    await page.getByLabel('Markdown', { exact: true }).fill('# FAQ\n\nShipping takes two days.');
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.locator('tr[data-row="faq"]').waitFor();

    const source = page.locator('tr[data-source]');
    await expect(source.getByTestId('sync-state').textContent()).resolves.toBe('not_synced');
    await source.getByRole('button', { name: 'Sync' }).click();
    // The page polls while the state is `syncing`; the worker finishes the sync.
    await source.getByTestId('sync-state').getByText('synced', { exact: true }).waitFor({ timeout: 20_000 });
    await ui.screenshot('datasources-synced');

    await row.getByRole('button', { name: 'View' }).click();
    await page.getByRole('article', { name: 'Row' }).getByText('within 30 days').waitFor();
    await ui.screenshot('datasources-row');

    // Names live on the admin side: rename it, and see it on the page.
    await source.getByRole('button', { name: 'rename' }).click();
    await source.getByLabel('Data source name').fill('Help center');
    await source.getByRole('button', { name: 'Save' }).click();
    await source.getByTestId('source-name').getByText('Help center').waitFor();
    await page.getByRole('heading', { name: 'Rows of Help center' }).waitFor();

    // The same state through the public API with the tenant's own key.
    const dataSourceId = (await source.getAttribute('data-source'))!;
    const res = await publicApi(rt, tenant)('get', `/data-sources?dataSourceId=${dataSourceId}`).expect(200);
    expect(res.body.dataSource).toMatchObject({ id: dataSourceId, state: 'synced' });
    expect(res.body.dataSource.lastSync).not.toBeNull();

    // A sync-trigger hook: its URL is shown once and starts a sync once enabled.
    await page.getByRole('button', { name: 'New hook URL' }).click();
    const hookUrl = (await page.getByTestId('secret-value').textContent())!;
    expect(hookUrl).toContain('/api/public/hooks/');
    await page.getByRole('table', { name: 'Sync hooks' }).getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('table', { name: 'Sync hooks' }).getByRole('button', { name: 'Disable' }).waitFor();
    const trigger = await rt.http().post(new URL(hookUrl).pathname);
    expect(trigger.body).toMatchObject({ success: true });
    await waitFor(async () => (await publicApi(rt, tenant)('get', `/data-sources?dataSourceId=${dataSourceId}`)).body.dataSource?.state === 'synced', 20_000);

    // The bot answers from the synced markdown in the playground (the README's newcomer path).
    await page.getByRole('link', { name: 'Chat playground' }).click();
    await page.getByPlaceholder('Ask the bot…').fill('How many days do I have to return an item?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.turn.assistant', { hasText: '30 days' }).waitFor({ timeout: 20_000 });
    await ui.screenshot('datasources-answered');
  });
});
