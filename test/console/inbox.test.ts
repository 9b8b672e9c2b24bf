// Console, agent inbox: a user asks for a human through the public API; an agent claims the
// conversation in the console, replies, and releases it back to the bot.
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN, useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { browserPath, noBrowserReason, useConsoleBrowser } from './browser.ts';

describe.skipIf(!browserPath)(`console: agent inbox${browserPath ? '' : ` (${noBrowserReason})`}`, () => {
  const rt = useTestRuntime({ worker: false });
  const ui = useConsoleBrowser(rt);
  let tenant: Tenant;
  let conversationId: string;
  beforeAll(async () => {
    tenant = await createTenant({ bot: 'Support bot' });
    await adminApi(rt)('patch', `/bots/${tenant.botId}`, { powerUps: ['human-handoff'] }).expect(200);
    const res = await publicApi(rt, tenant)('post', '/message', { message: 'I want to talk to a human please', userData: { name: 'Ada' } }).expect(200);
    conversationId = res.body.conversationId;
    await publicApi(rt, tenant)('post', '/message', { conversationId, message: 'ada@example.com' }).expect(200);
  });

  it('claims an escalated conversation, replies as the agent and releases it', async () => {
    const { page } = ui;
    await ui.signIn();
    await page.getByRole('link', { name: 'Agent inbox' }).click();
    const row = page.locator(`tr[data-conversation="${conversationId}"]`);
    await row.getByRole('button', { name: 'Open' }).click();
    await page.getByText('I want to talk to a human please').first().waitFor();
    // Without a name the claim is refused, and the page says why.
    await expect(page.getByRole('button', { name: 'Claim' }).isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('claim-hint').textContent()).resolves.toBe('Fill in your name and email above to claim');
    await page.getByLabel('Your name').fill('Grace');
    await page.getByLabel('Your email').fill('grace@example.com');
    await expect(page.getByTestId('claim-hint').count()).resolves.toBe(0);
    await ui.screenshot('inbox-escalated');

    await page.getByRole('button', { name: 'Claim as Grace' }).click();
    await page.getByTestId('conversation-state').getByText('Active').waitFor();
    await page.getByPlaceholder('Reply to the user…').fill('Hello Ada, Grace here.');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.locator('.turn', { hasText: 'Hello Ada, Grace here.' }).waitFor();
    await ui.screenshot('inbox-claimed-reply');

    // A new tab (no saved name) opening the claimed conversation can still answer it, as Grace.
    const tab = await ui.browser.newPage();
    await tab.goto(`${ui.baseUrl}/console/#/inbox`);
    await tab.getByLabel('Admin token').fill(TEST_ADMIN_TOKEN); // the token lives in each tab's sessionStorage
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.getByLabel('Show').selectOption('Active');
    await tab.locator(`tr[data-conversation="${conversationId}"]`).getByRole('button', { name: 'Open' }).click();
    await expect(tab.getByLabel('Your name').inputValue()).resolves.toBe('');
    await tab.getByPlaceholder('Reply to the user…').fill('Still here, Ada.');
    await tab.getByRole('button', { name: 'Send reply' }).click();
    await tab.locator('.turn', { hasText: 'Still here, Ada.' }).getByText('agent · Grace').waitFor();
    await tab.close();

    // The user sees the agent's reply through the public API.
    const messages = await publicApi(rt, tenant)('post', '/messages', { conversationId, limit: 100 }).expect(200);
    expect(messages.body.messages.map((m: { message: string }) => m.message)).toContain('Hello Ada, Grace here.');

    await page.getByRole('button', { name: 'Release to the bot' }).click();
    await page.getByTestId('conversation-state').getByText('Resolved').waitFor();
    const resolved = await waitFor(async () => {
      const res = await adminApi(rt)('get', `/bots/${tenant.botId}/conversations?state=Resolved`);
      return res.body.conversations?.find((c: { id: string }) => c.id === conversationId);
    });
    expect(resolved.agent).toMatchObject({ name: 'Grace', email: 'grace@example.com' });
    await ui.screenshot('inbox-released');
  });
});
