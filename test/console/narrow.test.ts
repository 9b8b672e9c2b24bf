// Console at 420 px wide (a phone): every page fits the window with nothing scrolled sideways or
// cut off inside a card, the controls each page is for are on screen, and each table cell shows its
// column's name (the header row is hidden there). A screenshot of each page goes to this test's
// temporary folder (its path is printed).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { useTestRuntime } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { gatewayFiles } from '../gateway/support/gatewayFiles.ts';
import { modulesWithGateway } from '../gateway/support/runtime.ts';
import { sendSigned } from '../gateway/support/signing.ts';
import { browserPath, noBrowserReason, useConsoleBrowser } from './browser.ts';

const WIDTH = 420;
const SECRET = 'console-narrow-secret-0123';
const files = gatewayFiles(
  { sources: { 'a-shop-with-a-long-source-name': { secrets: [SECRET] } } },
  { 'greet.json': { name: 'greet-every-paid-order-with-a-log-line', events: ['order.paid'], actions: [{ type: 'log', message: "'paid ' & $string(payload.total)" }] } },
);

/** What would make the page wider than the window, or hide part of it behind a sideways scroll. */
async function layout(page: Page): Promise<{ innerWidth: number; scrollWidth: number; clipped: string[] }> {
  // A string: the tests are typechecked without the DOM's types.
  return page.evaluate(`({
    innerWidth: window.innerWidth,
    scrollWidth: document.documentElement.scrollWidth,
    clipped: [...document.querySelectorAll('main, nav, .card, table, form')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.tagName.toLowerCase() + '.' + el.className + ' (' + el.scrollWidth + ' > ' + el.clientWidth + '): ' + (el.textContent ?? '').slice(0, 40)),
  })`);
}

/**
 * The column name each visible body cell shows before its content (its `::before`), against the
 * header text of its column; cells under an empty header (the buttons) are left out.
 */
async function cellLabels(page: Page): Promise<{ checked: number; shown: string[]; wrong: string[] }> {
  return page.evaluate(`(() => {
    let checked = 0;
    const shown = [];
    const wrong = [];
    for (const table of document.querySelectorAll('table')) {
      const names = [];
      for (const th of table.tHead?.rows[0]?.cells ?? []) for (let i = 0; i < th.colSpan; i++) names.push(th.textContent.trim());
      for (const body of table.tBodies) for (const row of body.rows) {
        let column = 0;
        for (const td of row.cells) {
          const name = names[column] ?? '';
          column += td.colSpan;
          if (td.getClientRects().length === 0) continue;
          const before = getComputedStyle(td, '::before').content;
          if (before !== 'none' && before !== 'normal') shown.push(before);
          if (!name) continue;
          checked++;
          if (before !== JSON.stringify(name)) wrong.push(name + ' shows ' + before + ' before ' + JSON.stringify(td.textContent.slice(0, 30)));
        }
      }
    }
    return { checked, shown, wrong };
  })()`);
}

/** Visible, and wholly inside the window's width. */
async function expectOnScreen(control: Locator, name: string) {
  await control.waitFor();
  await control.scrollIntoViewIfNeeded();
  const box = await control.boundingBox();
  expect(box, name).not.toBeNull();
  expect(box!.x, name).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, name).toBeLessThanOrEqual(WIDTH);
}

describe.skipIf(!browserPath)(`console: 420 px wide${browserPath ? '' : ` (${noBrowserReason})`}`, () => {
  const rt = useTestRuntime({ worker: false, env: files.env, ...modulesWithGateway() });
  const ui = useConsoleBrowser(rt);
  let tenant: Tenant;
  let shots: string;
  beforeAll(async () => {
    shots = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-console-420-'));
    process.stdout.write(`console screenshots at ${WIDTH} px: ${shots}\n`);
    tenant = await createTenant({ bot: 'A bot with a rather long name for a narrow window' });
    const created = await publicApi(rt, tenant)('post', '/data-sources').expect(200);
    await publicApi(rt, tenant)('post', '/data-sources/row', {
      dataSourceId: created.body.dataSource.id,
      dataSourceRows: [{ name: 'a-markdown-file-with-a-long-name-returns-and-refunds.md', content: '# Returns\n\nWithin 30 days.' }],
    }).expect(200);
    await adminApi(rt)('post', `/bots/${tenant.botId}/webhooks`, {
      type: 'sync.success',
      url: 'http://127.0.0.1:9/an/endpoint/path/that/is/long/enough/to/push/a/narrow/table/wider/than/its/card?with=query',
    }).expect(201);
    expect((await sendSigned(rt, 'a-shop-with-a-long-source-name', SECRET, { event: 'order.paid', total: 42 })).status).toBe(202);
  });

  it('fits every page into the window with its controls on screen', async () => {
    const { page } = ui;
    await page.setViewportSize({ width: WIDTH, height: 900 });
    await ui.signIn();
    const pages: [string, string, (page: Page) => Locator[]][] = [
      ['Bots and channels', 'bots', (p) => [p.getByRole('button', { name: 'Create bot' }), p.getByRole('button', { name: 'Channels' }).first()]],
      [
        'Data sources',
        'data-sources',
        (p) => [p.getByRole('button', { name: 'New data source' }), p.getByRole('button', { name: 'Sync', exact: true }), p.getByLabel('Sync interval'), p.getByLabel('Channel', { exact: true })],
      ],
      ['Webhooks', 'webhooks', (p) => [p.getByRole('button', { name: 'Send test' }), p.getByRole('button', { name: 'Delete' }), p.getByRole('button', { name: 'Create webhook' }), p.getByLabel('Target URL')]],
      ['Agent inbox', 'inbox', (p) => [p.getByLabel('Show')]],
      ['Chat playground', 'playground', (p) => [p.getByRole('button', { name: 'New conversation' }), p.getByPlaceholder('Ask the bot…'), p.getByRole('button', { name: 'Send' })]],
      ['Gateway', 'gateway', (p) => [p.getByRole('button', { name: 'Reload rules' }), p.getByRole('button', { name: 'Filter' }), p.getByRole('button', { name: 'Open' })]],
    ];
    let labelled = 0;
    for (const [link, name, controls] of pages) {
      await page.getByRole('link', { name: link }).click();
      for (const [i, control] of controls(page).entries()) await expectOnScreen(control, `${name} control ${i}`);
      if (name === 'data-sources') {
        await page.getByRole('button', { name: 'Rows' }).click();
        await expectOnScreen(page.getByRole('button', { name: 'View' }), 'data-sources View');
        await expectOnScreen(page.getByRole('button', { name: 'Add row' }), 'data-sources Add row');
      }
      if (name === 'webhooks') await page.getByRole('button', { name: 'Deliveries' }).click();
      // The navigation stays reachable on every page.
      for (const nav of ['Bots and channels', 'Data sources', 'Webhooks', 'Agent inbox', 'Chat playground', 'Gateway']) {
        await expectOnScreen(page.getByRole('link', { name: nav }), `${name} nav ${nav}`);
      }
      await expectOnScreen(page.getByLabel('Bot', { exact: true }), `${name} bot picker`);
      await expectOnScreen(page.getByRole('button', { name: 'Sign out' }), `${name} sign out`);

      const found = await layout(page);
      expect(found.innerWidth).toBe(WIDTH);
      expect(found.scrollWidth, `${name}: page wider than the window`).toBeLessThanOrEqual(found.innerWidth);
      expect(found.clipped, `${name}: content cut off in a sideways scroll`).toEqual([]);
      const labels = await cellLabels(page);
      expect(labels.wrong, `${name}: cells without their column's name`).toEqual([]);
      labelled += labels.checked;
      const file = path.join(shots, `${name}-${WIDTH}.png`);
      await page.screenshot({ path: file, fullPage: true });
      expect(fs.statSync(file).size).toBeGreaterThan(1000);
    }
    // Every page but the playground has a table with rows here.
    expect(labelled).toBeGreaterThan(20);

    // A wide window keeps the header row, and its cells show no column names of their own.
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const link of ['Webhooks', 'Data sources', 'Gateway']) {
      await page.getByRole('link', { name: link }).click();
      // The page switched (its link is the active one), then its table loaded: the last page's rows,
      // still there until the switch renders, would let a plain wait for a row pass at once.
      await page.locator('nav a.active').filter({ hasText: link }).waitFor();
      await expect.poll(async () => (await cellLabels(page)).checked, { message: link, timeout: 10_000 }).toBeGreaterThan(0);
      expect((await page.locator('thead th').first().boundingBox())?.height, `${link} header row`).toBeGreaterThan(10);
      expect((await cellLabels(page)).shown, `${link} at 1280 px`).toEqual([]);
    }
  });
});
