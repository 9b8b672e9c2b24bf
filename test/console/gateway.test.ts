// Console, gateway page: the rules loaded from RULES_DIR with a rejected file's error, a signed
// delivery received by the gateway with its rule outcome and action result, filters, a replay, and
// the list newest first with Older and Newer pages.
import { describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { gatewayFiles } from '../gateway/support/gatewayFiles.ts';
import { modulesWithGateway } from '../gateway/support/runtime.ts';
import { idAt, processedRow } from '../gateway/support/ids.ts';
import { GatewayDeliveryModel } from '../../src/gateway/model.ts';
import { sendSigned } from '../gateway/support/signing.ts';
import { browserPath, noBrowserReason, useConsoleBrowser } from './browser.ts';

const SECRET = 'console-gateway-secret-0123';
const files = gatewayFiles(
  { sources: { shop: { secrets: [SECRET] } } },
  {
    'greet.json': { name: 'greet', events: ['order.paid'], when: 'payload.total > 10', actions: [{ type: 'log', message: "'paid ' & $string(payload.total)" }] },
    'broken.json': { name: 'broken', when: '(', actions: [{ type: 'log', message: "'x'" }] },
  },
);

describe.skipIf(!browserPath)(`console: gateway${browserPath ? '' : ` (${noBrowserReason})`}`, () => {
  const rt = useTestRuntime({ env: files.env, ...modulesWithGateway() });
  const ui = useConsoleBrowser(rt);

  it('shows loaded rules and load errors, received deliveries with rule and action outcomes, filters and replays', async () => {
    const paid = sendSigned(rt, 'shop', SECRET, { event: 'order.paid', total: 42 });
    expect((await paid).status).toBe(202);
    expect((await sendSigned(rt, 'shop', SECRET, { event: 'order.refunded', total: 5 })).status).toBe(202);
    const { page } = ui;
    await ui.signIn();
    await page.getByRole('link', { name: 'Gateway' }).click();

    // The source and its scheme (issue 19).
    await page.getByRole('table', { name: 'Sources' }).locator('tr[data-source="shop"]').getByTestId('scheme').getByText('relay').waitFor();

    const rules = page.locator('section', { hasText: 'Loaded rules' });
    await rules.getByRole('table', { name: 'Rules' }).getByRole('cell', { name: 'greet', exact: true }).waitFor();
    await expect(rules.getByRole('alert', { name: 'Rule load errors' }).textContent()).resolves.toMatch(/broken\.json.*\(rule broken\).*when/);

    const deliveries = page.getByRole('table', { name: 'Gateway deliveries' });
    const row = deliveries.locator(`tr[data-delivery="${paid.deliveryId}"]`);
    await waitFor(async () => {
      await page.locator('section', { hasText: 'Received deliveries' }).getByRole('button', { name: 'Refresh' }).click();
      return (await row.getByTestId('outcome').textContent())?.includes('greet: matched, log succeeded');
    });
    await expect(deliveries.locator('tbody tr').count()).resolves.toBe(2);
    await ui.screenshot('gateway-deliveries');

    await page.getByLabel('Event').fill('order.paid');
    await page.getByRole('button', { name: 'Filter' }).click();
    await waitFor(async () => (await deliveries.locator('tbody tr').count()) === 1);

    await row.getByRole('button', { name: 'Open' }).click();
    const detail = page.locator('section', { hasText: 'Delivery order.paid from shop' });
    await detail.getByTestId('rule-result').first().waitFor();
    await expect(detail.getByTestId('rule-result').first().textContent()).resolves.toBe('matched');
    await expect(detail.getByTestId('action-status').first().textContent()).resolves.toBe('succeeded');

    await detail.getByRole('button', { name: 'Replay' }).click();
    // Runs count from 0: the first replay is run 1, recorded beside run 0.
    await detail.getByText('Replay queued as run 1').waitFor();
    await waitFor(async () => {
      await detail.getByRole('button', { name: 'Refresh' }).click();
      return (await detail.getByTestId('rule-outcome').count()) === 2 && (await detail.getByTestId('action-status').nth(1).textContent()) === 'succeeded';
    });
    await ui.screenshot('gateway-replayed');
  });

  it('lists the newest first, with Older pages back in time and Newer to return', async () => {
    // Thirty deliveries received an hour before the two above, stored oldest last: the order
    // shown is the time of receipt, not the order of storing.
    const base = Date.now() - 3_600_000;
    const older = Array.from({ length: 30 }, (_, n) => processedRow(idAt(base + n), { source: 'shop', event: 'order.paid', deliveryId: `older-${n}`, at: new Date(base + n) }));
    await GatewayDeliveryModel.collection.insertMany([...older].reverse() as never[]);
    const { page } = ui;
    await page.getByLabel('Event').fill('');
    await page.getByRole('button', { name: 'Filter' }).click();
    const rows = page.getByRole('table', { name: 'Gateway deliveries' }).locator('tbody tr');
    const shown = async () => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-delivery')));
    // A page of 25: the refund sent last, the payment before it, then the newest of the thirty.
    await waitFor(async () => (await rows.count()) === 25);
    const first = await shown();
    expect(first.slice(2)).toEqual(Array.from({ length: 23 }, (_, n) => `older-${29 - n}`));
    await expect(rows.nth(0).locator('td').nth(2).textContent()).resolves.toBe('order.refunded');
    await expect(rows.nth(1).locator('td').nth(2).textContent()).resolves.toBe('order.paid');
    await ui.screenshot('gateway-newest-first');

    await page.getByRole('button', { name: 'Older' }).click();
    await waitFor(async () => (await rows.count()) === 7);
    expect(await shown()).toEqual(Array.from({ length: 7 }, (_, n) => `older-${6 - n}`));
    await expect(page.getByRole('button', { name: 'Older' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Newer' }).click();
    await waitFor(async () => (await rows.count()) === 25);
    expect(await shown()).toEqual(first);
  });
});
