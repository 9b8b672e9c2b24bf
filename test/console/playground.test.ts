// Console, chat playground: a console channel is created for the bot and a question is answered
// through the public 2.0 stream (its admin mirror), shown as it arrives, in a conversation the public API can read.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { browserPath, noBrowserReason, useConsoleBrowser } from './browser.ts';

describe.skipIf(!browserPath)(`console: chat playground${browserPath ? '' : ` (${noBrowserReason})`}`, () => {
  const rt = useTestRuntime({ worker: false });
  const ui = useConsoleBrowser(rt);
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createTenant({ bot: 'Chatty' });
    await adminApi(rt)('patch', `/bots/${tenant.botId}`, { welcomeMessage: 'Hi, I am Chatty.' }).expect(200);
  });

  it('streams the reply over 2.0 into the page and keeps one conversation', async () => {
    const { page } = ui;
    const streamed: string[] = [];
    const streamedUrls: string[] = [];
    page.on('response', (r) => {
      if (!r.url().endsWith('/2.0/message')) return;
      streamed.push(r.headers()['content-type'] ?? '');
      streamedUrls.push(r.url());
    });
    await ui.signIn();
    await page.getByRole('link', { name: 'Chat playground' }).click();
    await page.getByText('for the public API').waitFor();

    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.locator('.turn.assistant', { hasText: 'Hi, I am Chatty.' }).waitFor();
    const conversationId = (await page.getByTestId('conversation-id').textContent())!;
    expect(conversationId).toMatch(/^[0-9a-f-]{36}$/);

    await page.getByPlaceholder('Ask the bot…').fill('What can you tell me about returns?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Send' }).and(page.locator(':disabled')).waitFor(); // the input is cleared
    await page.locator('.turn.user', { hasText: 'What can you tell me about returns?' }).waitFor();
    const reply = page.locator('.turn.assistant').last().locator('.text');
    await expect.poll(async () => ((await reply.textContent()) ?? '').replace('…', '').trim().length, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached' });
    await ui.screenshot('playground-reply');

    expect(streamed[0]).toContain('text/event-stream');
    expect(await page.getByTestId('conversation-id').textContent()).toBe(conversationId);

    // The page talked as the bot's console channel, and the conversation, read through the admin
    // mirror of the public API (the console holds no key), has both turns.
    const channels = await adminApi(rt)('get', `/channels?botId=${tenant.botId}`).expect(200);
    const consoleChannel = channels.body.channels.find((c: { name: string }) => c.name === 'console');
    expect(consoleChannel).toBeDefined();
    expect(streamedUrls[0]).toContain(`/api/admin/bots/${tenant.botId}/channels/${consoleChannel.channelId}/public/2.0/message`);
    const history = await adminApi(rt)('post', `/bots/${tenant.botId}/channels/${consoleChannel.channelId}/public/2.0/messages`, { conversationId, limit: 100 }).expect(200);
    const roles = history.body.messages.map((m: { role: string }) => m.role);
    expect(roles).toEqual(expect.arrayContaining(['user', 'assistant']));
    expect(history.body.messages.at(-1).message.length).toBeGreaterThan(0);
  });
});
