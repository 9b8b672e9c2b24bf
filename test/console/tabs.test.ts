// Console in two tabs at once: both use the data sources page and the playground with the admin
// token alone. No channel key is rotated, sent, shown or stored, so a script holding the key of the
// channel the console uses keeps working.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useTestRuntime } from '../helpers/harness.ts';
import { createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { createApiChannel, listApiChannels } from '../../src/platform/service.ts';
import { ApiChannelModel } from '../../src/platform/model.ts';
import { browserPath, noBrowserReason, useConsoleBrowser } from './browser.ts';

describe.skipIf(!browserPath)(`console: two tabs, no channel key${browserPath ? '' : ` (${noBrowserReason})`}`, () => {
  const rt = useTestRuntime();
  const ui = useConsoleBrowser(rt);
  let tenant: Tenant;
  /** The bot's `console` channel and its key, held by an integrator's script only. */
  let script: Tenant;
  let hashes: Map<string, string>;
  beforeAll(async () => {
    tenant = await createTenant({ bot: 'Tab bot' });
    const issued = await createApiChannel(tenant.botId, 'console');
    script = { ...tenant, channelId: issued.channel.id, secretKey: issued.secretKey };
    hashes = new Map((await ApiChannelModel.find({ botId: tenant.botId }).lean()).map((c) => [c.id, c.secretHash]));
  });

  /** Every request a tab sends, to show that none carries a key or rotates one. */
  const sent: { url: string; headers: Record<string, string> }[] = [];
  const watch = (tab: Page) => tab.on('request', (r) => sent.push({ url: r.url(), headers: r.headers() }));

  async function openPage(tab: Page, link: string) {
    await tab.getByRole('link', { name: link }).click();
    // Both tabs call the public API as the bot's console channel, with no key to ask for.
    await expect.poll(() => tab.getByLabel('Channel', { exact: true }).inputValue(), { timeout: 10_000 }).toBe(script.channelId);
  }

  async function ask(tab: Page, question: string) {
    await tab.getByPlaceholder('Ask the bot…').fill(question);
    await tab.getByRole('button', { name: 'Send' }).click();
    await tab.locator('.turn.user', { hasText: question }).waitFor();
    await tab.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached', timeout: 20_000 });
    return (await tab.locator('.turn.assistant').last().locator('.text').textContent()) ?? '';
  }

  it('serves the data sources page and the playground in two tabs with the admin token alone', async () => {
    const first = ui.page;
    watch(first);
    await ui.signIn();
    const second = await ui.openTab();
    watch(second);

    // First tab: a data source with a row, synced.
    await openPage(first, 'Data sources');
    await first.getByRole('button', { name: 'New data source' }).click();
    await first.getByRole('heading', { name: /^Rows of / }).waitFor();
    await first.getByLabel('Name', { exact: true }).fill('returns');
    await first.getByLabel('Markdown', { exact: true }).fill('# Returns\n\nYou can return any item within 30 days for a full refund.');
    await first.getByRole('button', { name: 'Add row' }).click();
    await first.locator('tr[data-row="returns"]').waitFor();
    const source = first.locator('tr[data-source]');
    const dataSourceId = (await source.getAttribute('data-source'))!;
    await source.getByRole('button', { name: 'Sync' }).click();
    await source.getByTestId('sync-state').getByText('synced', { exact: true }).waitFor({ timeout: 20_000 });

    // Second tab, opened meanwhile: the same data source; it adds a row and reads one back.
    await openPage(second, 'Data sources');
    const same = second.locator(`tr[data-source="${dataSourceId}"]`);
    await same.getByTestId('sync-state').getByText('synced', { exact: true }).waitFor();
    await same.getByRole('button', { name: 'Rows' }).click();
    await second.getByLabel('Name', { exact: true }).fill('shipping');
    await second.getByLabel('Markdown', { exact: true }).fill('# Shipping\n\nShipping takes two days.');
    await second.getByRole('button', { name: 'Add row' }).click();
    await second.locator('tr[data-row="shipping"]').waitFor();
    await second.locator('tr[data-row="returns"]').getByRole('button', { name: 'View' }).click();
    await second.getByRole('article', { name: 'Row' }).getByText('within 30 days').waitFor();

    // The first tab still works after the second one started: it syncs the new row.
    await source.getByRole('button', { name: 'Sync' }).click();
    await source.getByTestId('sync-state').getByText('synced', { exact: true }).waitFor({ timeout: 20_000 });

    // Both tabs chat, each in its own conversation, streamed (2.0 SSE) through the admin mirror.
    await openPage(second, 'Chat playground');
    await openPage(first, 'Chat playground');
    expect(await ask(second, 'How many days do I have to return an item?')).toContain('30 days');
    expect((await ask(first, 'How long does shipping take?')).trim().length).toBeGreaterThan(0);
    const firstConversation = await first.getByTestId('conversation-id').textContent();
    const secondConversation = await second.getByTestId('conversation-id').textContent();
    expect(firstConversation).toMatch(/^[0-9a-f-]{36}$/);
    expect(secondConversation).toMatch(/^[0-9a-f-]{36}$/);
    expect(firstConversation).not.toBe(secondConversation);
    await ui.screenshot('tabs-first-playground');

    // No key in either tab's storage or on its pages, and none was sent or rotated.
    for (const tab of [first, second]) {
      // Strings: the tests are typechecked without the DOM's types.
      const stored: { session: [string, string][]; local: [string, string][] } = await tab.evaluate('({ session: Object.entries(sessionStorage), local: Object.entries(localStorage) })');
      expect(stored.local).toEqual([]);
      const keys = stored.session.map(([key]) => key);
      expect(keys).toContain('relay.adminToken');
      expect(keys.filter((key) => !['relay.adminToken', 'relay.botId'].includes(key))).toEqual([]);
      expect(JSON.stringify(stored)).not.toMatch(/sk_/);
      expect(await tab.evaluate('document.body.innerText')).not.toMatch(/sk_/);
    }
    const mirrored = sent.filter((r) => r.url.includes(`/api/admin/bots/${tenant.botId}/channels/${script.channelId}/public/2.0/`));
    expect(mirrored.some((r) => r.url.endsWith('/message'))).toBe(true);
    expect(mirrored.some((r) => r.url.endsWith('/data-sources/row'))).toBe(true);
    expect(sent.filter((r) => r.url.includes('/api/public/channels/') || r.url.endsWith('/rotate') || 'x-api-secret-key' in r.headers)).toEqual([]);

    // The script's key still opens the channel the console used: nothing was rotated.
    const listed = await publicApi(rt, script)('post', '/data-sources/list', {}).expect(200);
    expect(listed.body.dataSources.map((d: { id: string }) => d.id)).toEqual([dataSourceId]);
    await publicApi(rt, tenant)('post', '/data-sources/list', {}).expect(200);
    const after = await listApiChannels(tenant.botId);
    expect(new Map(after.map((c) => [c.id, c.secretHash]))).toEqual(hashes);
  });
});
