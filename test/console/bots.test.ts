// Console, bots and channels page: sign in with the admin token, create a bot and a channel, rotate
// the channel's key, in a real browser.
import { describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { authenticateChannel } from '../../src/platform/service.ts';
import { browserPath, noBrowserReason, useConsoleBrowser } from './browser.ts';

describe.skipIf(!browserPath)(`console: bots and channels${browserPath ? '' : ` (${noBrowserReason})`}`, () => {
  const rt = useTestRuntime({ worker: false });
  const ui = useConsoleBrowser(rt);

  it('refuses a wrong admin token and keeps it out of the URL', async () => {
    const { page } = ui;
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${ui.baseUrl}/console/`);
    await page.getByLabel('Admin token').fill('not-the-admin-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That token was refused.').waitFor();
    await ui.screenshot('login-refused');
    expect(requests.some((u) => u.includes('not-the-admin-token'))).toBe(false);
    page.removeAllListeners('request');
  });

  it('creates a bot and a channel, then rotates the key so only the new one opens the channel', async () => {
    const { page } = ui;
    await ui.signIn();
    await page.getByLabel('Name').fill('Docs bot');
    await page.getByRole('button', { name: 'Create bot' }).click();
    await page.getByRole('heading', { name: 'API channels of Docs bot' }).waitFor();

    await page.getByPlaceholder('channel name (optional)').fill('website');
    await page.getByRole('button', { name: 'Create channel' }).click();
    const firstKey = (await page.getByTestId('secret-value').textContent())!;
    const row = page.locator('tr', { hasText: 'website' });
    const channelId = (await row.getAttribute('data-channel'))!;
    expect(await authenticateChannel(channelId, firstKey)).toBeTruthy();
    await ui.screenshot('bots-channel-created');

    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: 'Rotate key' }).click();
    await page.getByText('Rotated key of website').waitFor();
    const rotatedKey = (await page.getByTestId('secret-value').textContent())!;
    expect(rotatedKey).not.toBe(firstKey);
    expect(await authenticateChannel(channelId, rotatedKey)).toBeTruthy();
    await expect(authenticateChannel(channelId, firstKey)).rejects.toMatchObject({ code: 'forbidden' });
    await ui.screenshot('bots-key-rotated');

    await row.getByRole('button', { name: 'Disable' }).click();
    await row.getByRole('button', { name: 'Enable' }).waitFor();
  });
});
