// Console, webhooks page: create a hook to a real local receiver, enable it, send a test, then see
// a real event's delivery in the hook's delivery log and in /metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, type Tenant } from '../helpers/factories.ts';
import { browserPath, noBrowserReason, useConsoleBrowser } from './browser.ts';
import { startSink } from './sink.ts';

describe.skipIf(!browserPath)(`console: webhooks${browserPath ? '' : ` (${noBrowserReason})`}`, () => {
  const rt = useTestRuntime();
  const ui = useConsoleBrowser(rt);
  let tenant: Tenant;
  let sink: Awaited<ReturnType<typeof startSink>>;
  beforeAll(async () => {
    tenant = await createTenant({ bot: 'Hook bot' });
    sink = await startSink();
  });
  afterAll(() => sink?.close());

  it('creates and enables a hook, sends a test, and shows a real delivery in its log and resends it', async () => {
    const { page } = ui;
    await ui.signIn();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks of Hook bot' }).waitFor();

    await page.getByLabel('Event').selectOption('sync.success');
    await page.getByLabel('Target URL').fill(sink.url);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const secret = (await page.getByTestId('secret-value').textContent())!;
    expect(secret.length).toBeGreaterThan(10);
    const row = page.locator('tr', { hasText: sink.url });
    await row.getByRole('button', { name: 'Enable' }).click();
    await row.getByRole('button', { name: 'Disable' }).waitFor();

    await row.getByRole('button', { name: 'Send test' }).click();
    await page.getByTestId('test-result').getByText('HTTP 200').waitFor();
    expect(sink.received.at(-1)?.headers['x-service-test']).toBe('true');
    // The test send is in the hook's log, marked as a test, and cannot be resent.
    const testId = String(sink.received.at(-1)?.headers['x-service-delivery-id']);
    const testRow = page.locator('section', { hasText: 'Deliveries of sync.success' }).locator(`tr[data-delivery="${testId}"]`);
    await testRow.getByText('(test)').waitFor();
    await expect(testRow.textContent()).resolves.toContain('HTTP 200');
    expect(await testRow.getByRole('button', { name: 'Resend' }).isDisabled()).toBe(true);
    await ui.screenshot('webhooks-test-sent');

    await rt.runtime.ctx.events.emit({
      type: 'sync.success',
      teamId: tenant.teamId,
      botId: tenant.botId,
      dataSourceId: '00000000-0000-4000-8000-00000000d5d5',
      payload: { bot: { id: tenant.botId, name: 'Hook bot' }, dataSource: { id: '00000000-0000-4000-8000-00000000d5d5', name: 'Docs' } },
    });
    const live = await waitFor(() => sink.received.find((r) => r.headers['x-service-test'] === undefined));
    const deliveryId = String(live.headers['x-service-delivery-id']);

    const log = page.locator('section', { hasText: 'Deliveries of sync.success' });
    await waitFor(async () => {
      await log.getByRole('button', { name: 'Refresh' }).click();
      const status = log.locator(`tr[data-delivery="${deliveryId}"]`).getByTestId('delivery-status');
      return (await status.count()) > 0 && (await status.textContent()) === 'delivered';
    });
    await expect(log.locator(`tr[data-delivery="${deliveryId}"]`).textContent()).resolves.toContain('HTTP 200');
    await ui.screenshot('webhooks-delivery-log');

    // A resend sends the same delivery again (same id) as attempt #2.
    await log.locator(`tr[data-delivery="${deliveryId}"]`).getByRole('button', { name: 'Resend' }).click();
    await waitFor(() => sink.received.filter((r) => r.headers['x-service-delivery-id'] === deliveryId).length === 2);
    await waitFor(async () => {
      await log.getByRole('button', { name: 'Refresh' }).click();
      return ((await log.locator(`tr[data-delivery="${deliveryId}"]`).textContent()) ?? '').includes('#2 succeeded');
    });

    const metrics = await rt.http().get('/metrics');
    expect(metrics.text).toMatch(/relay_webhook_deliveries_total\{[^}]*test="false"\} [1-9]/);
    expect(metrics.text).toMatch(/relay_webhook_deliveries_total\{outcome="succeeded",attempt="1",test="true"\} [1-9]/);
  });

  it('at 820 px keeps a long URL readable, and the log shows an attempt\'s error detail and the next attempt time', async () => {
    const failing = await startSink({ status: 503, body: 'down for maintenance until 18:00' });
    const longUrl = `${failing.url}/a-rather-long-path/for-the-receiver/that-used-to-wrap?one=character&per=line`;
    const created = await adminApi(rt)('post', `/bots/${tenant.botId}/webhooks`, { type: 'conversation.started', url: longUrl }).expect(201);
    const webhookId = created.body.webhook.id;
    await adminApi(rt)('put', `/bots/${tenant.botId}/webhooks/${webhookId}/enabled`, { enabled: true }).expect(200);
    const { page } = ui;
    await page.setViewportSize({ width: 820, height: 900 });
    await page.reload(); // still signed in from the first test (same tab); the reload lists the new hook
    const row = page.locator(`tr[data-webhook="${webhookId}"]`);
    const url = row.locator('td.url');
    await url.waitFor();
    await ui.screenshot('webhooks-820px');
    // A readable URL: wider than a few characters and a handful of lines (it was one character per line).
    const box = (await url.locator('code').boundingBox())!;
    expect(box.width).toBeGreaterThan(150);
    expect(box.height).toBeLessThan(200);

    await rt.runtime.ctx.events.emit({ type: 'conversation.started', teamId: tenant.teamId, botId: tenant.botId, conversationId: '00000000-0000-4000-8000-0000000000c1', payload: { conversation: { id: '00000000-0000-4000-8000-0000000000c1' } } });
    await waitFor(() => failing.received.length > 0);
    await row.getByRole('button', { name: 'Deliveries' }).click();
    const log = page.locator('section', { hasText: 'Deliveries of conversation.started' });
    await waitFor(async () => {
      await log.getByRole('button', { name: 'Refresh' }).click();
      return (await log.getByTestId('next-attempt').count()) > 0;
    });
    await expect(log.getByTestId('attempt-error').first().textContent()).resolves.toContain('down for maintenance until 18:00');
    await expect(log.getByTestId('next-attempt').textContent()).resolves.toMatch(/^next attempt \S/);
    await ui.screenshot('webhooks-failed-delivery');
    await failing.close();
  });
});
