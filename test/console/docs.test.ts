// The API reference page in a real browser: Swagger UI loads from the app (no CDN; the browser
// has no network beyond loopback) and lists the operations of /openapi.json.
import { describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';
import { browserPath, noBrowserReason, useConsoleBrowser } from './browser.ts';

describe.skipIf(!browserPath)(`docs page${browserPath ? '' : ` (${noBrowserReason})`}`, () => {
  const rt = useTestRuntime({ worker: false });
  const ui = useConsoleBrowser(rt);

  it('renders every documented operation from files served by the app', async () => {
    const { page } = ui;
    const foreign: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(ui.baseUrl) && !r.url().startsWith('data:')) foreign.push(r.url());
    });
    await page.goto(`${ui.baseUrl}/docs`);
    await page.locator('.opblock').first().waitFor();
    const doc = (await rt.http().get('/openapi.json')).body;
    const operations = Object.values(doc.paths as Record<string, object>).reduce<number>((n, ops) => n + Object.keys(ops).length, 0);
    await expect.poll(() => page.locator('.opblock').count()).toBe(operations);
    await expect(page.locator('.opblock-summary-path', { hasText: '/api/admin/bots' }).first().isVisible()).resolves.toBe(true);
    await ui.screenshot('docs-page');
    expect(foreign).toEqual([]);

    // Operations show their summaries, and trying the message endpoint starts on version 2.0, not the deprecated 1.0.
    const message = page.locator('.opblock', { has: page.locator('.opblock-summary-path', { hasText: /\/message$/ }) }).first();
    await expect(message.locator('.opblock-summary-description').textContent()).resolves.toBe(
      'Send a message and get the reply: whole, or streamed (2.0 SSE, 1.0 NDJSON)',
    );
    await message.locator('.opblock-summary').click();
    await message.getByRole('button', { name: 'Try it out' }).click();
    await expect(message.locator('tr[data-param-name="version"] select').inputValue()).resolves.toBe('2.0');
    await ui.screenshot('docs-message-try');
  });
});
