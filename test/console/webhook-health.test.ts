// Console, issue 19: a hook Relay disabled for failing (on an injected clock: 121 hours of failed
// attempts against a real receiver answering 503) shows why and since when; "Enable and resend
// failed" turns it on and its missed deliveries reach the receiver, now answering 200. The delivery
// settings form saves Standard Webhooks headers and a retry schedule, and a test send carries them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { browserPath, noBrowserReason, useConsoleBrowser } from './browser.ts';
import { startSink, type Sink } from '../webhooks/sink.ts';

let offset = 0;
const clock = { now: () => new Date(Date.now() + offset) };

describe.skipIf(!browserPath)(`console: webhook health and settings${browserPath ? '' : ` (${noBrowserReason})`}`, () => {
  const rt = useTestRuntime({ clock });
  const ui = useConsoleBrowser(rt);
  let tenant: Tenant;
  let sink: Sink;
  let status = 503;
  beforeAll(async () => {
    tenant = await createTenant({ bot: 'Health bot' });
    sink = await startSink(() => ({ status }));
  });
  afterAll(() => sink?.close());

  const emit = async () => {
    const before = sink.requests.length;
    const conversation = { id: crypto.randomUUID(), botId: tenant.botId, botName: 'Health bot', channelType: 'api', createdAt: clock.now().toISOString() };
    await rt.runtime.ctx.events.emit({ type: 'conversation.started', teamId: tenant.teamId, botId: tenant.botId, payload: { event: 'conversation.started', conversation } });
    await waitFor(() => sink.requests.length > before);
  };

  it('shows a hook disabled for failing, re-enables it resending what failed, and saves delivery settings', async () => {
    const created = await adminApi(rt)('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url: `${sink.url}/health`, retryDelaysSeconds: [] }).expect(201);
    const id = created.body.webhook.id as string;
    await adminApi(rt)('put', `/bots/${tenant.botId}/webhooks/${id}/enabled`, { enabled: true }).expect(200);
    await emit();
    await waitFor(async () => (await adminApi(rt)('get', `/bots/${tenant.botId}/webhooks/${id}`)).body.webhook.failingSince);
    offset = 121 * 3600_000;
    await emit();
    await waitFor(async () => (await adminApi(rt)('get', `/bots/${tenant.botId}/webhooks/${id}`)).body.webhook.disabledReason === 'failing');

    const { page } = ui;
    await ui.signIn();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    const row = page.locator(`tr[data-webhook="${id}"]`);
    await row.getByTestId('hook-health').getByText('disabled by Relay').waitFor();
    expect(await row.getByTestId('hook-health').textContent()).toMatch(/failing since/);
    await ui.screenshot('webhooks-disabled-for-failing');

    status = 200;
    const before = sink.requests.length;
    await row.getByRole('button', { name: 'Enable and resend failed' }).click();
    await page.getByTestId('resent').getByText('resent 2 failed deliveries').waitFor();
    await waitFor(() => sink.requests.length === before + 2);
    await row.getByRole('button', { name: 'Disable' }).waitFor();
    expect(await row.getByTestId('hook-health').textContent()).toBe('yes');

    // Delivery settings of the opened hook.
    await row.getByRole('button', { name: 'Deliveries' }).click();
    const settings = page.getByRole('form', { name: 'Delivery settings' });
    await settings.getByLabel(/Standard Webhooks/).check();
    await settings.locator('input[name="retryDelays"]').fill('5, 60');
    await settings.locator('input[name="concurrency"]').fill('3');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved.').waitFor();
    await ui.screenshot('webhooks-delivery-settings');
    const hook = (await adminApi(rt)('get', `/bots/${tenant.botId}/webhooks/${id}`).expect(200)).body.webhook;
    expect(hook).toMatchObject({ standardWebhooks: true, retryDelaysSeconds: [5, 60], concurrency: 3, ratePerSecond: null });

    await row.getByRole('button', { name: 'Send test' }).click();
    await page.getByTestId('test-result').getByText('HTTP 200').waitFor();
    expect(sink.requests.at(-1)!.headers['webhook-signature']).toMatch(/^v1,/);
  });
});
