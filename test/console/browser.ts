// Browser tests of the console: Debian's chromium driven by playwright-core (no browser download),
// against the app listening on 127.0.0.1. Screenshots go to test-output/console/.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { TestRuntime } from '../helpers/harness.ts';
import { TEST_ADMIN_TOKEN } from '../helpers/harness.ts';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The browser to drive, or undefined when none is installed (the tests then skip, saying why). */
export const browserPath = CANDIDATES.find((p): p is string => Boolean(p && fs.existsSync(p)));
export const noBrowserReason = 'no Chromium found (apt-get install -y chromium, or set CHROMIUM_PATH); console browser tests skipped';
if (!browserPath) process.stderr.write(`\n  ${noBrowserReason}\n\n`);

export const SCREENSHOTS = path.resolve('test-output/console');

/** Builds console/dist when missing or stale, as `npm test` does. */
export function ensureConsoleBuilt(): void {
  const result = spawnSync(process.execPath, ['console/ensure-built.mjs'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the console build failed');
}

export interface ConsoleSession {
  baseUrl: string;
  browser: BrowserContext;
  page: Page;
  screenshot(name: string): Promise<void>;
  /** Signs in on `page` (the first tab when left out). */
  signIn(page?: Page): Promise<void>;
  /** Another tab of the same browser, signed in: it shares no sessionStorage with the others. */
  openTab(): Promise<Page>;
}

/** Serves `rt.app` on a loopback port, launches chromium and opens one page, for one test file. */
export function useConsoleBrowser(rt: TestRuntime): ConsoleSession {
  const session = {} as ConsoleSession;
  let server: http.Server;
  let profile: string;
  beforeAll(async () => {
    ensureConsoleBuilt();
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    server = http.createServer(rt.app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-chromium-'));
    // A fresh profile per file (playwright passes it as --user-data-dir); the flags keep chromium
    // off the network, which is closed here.
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: browserPath,
      headless: true,
      viewport: { width: 1280, height: 860 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const page = browser.pages()[0] ?? (await browser.newPage());
    page.setDefaultTimeout(10_000);
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    Object.assign(session, {
      baseUrl,
      browser,
      page,
      async screenshot(name: string) {
        await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
      },
      async signIn(tab: Page = page) {
        await tab.goto(`${baseUrl}/console/`);
        await tab.getByLabel('Admin token').fill(TEST_ADMIN_TOKEN);
        await tab.getByRole('button', { name: 'Sign in' }).click();
        await tab.getByRole('link', { name: 'Bots and channels' }).waitFor();
      },
      async openTab() {
        const tab = await browser.newPage();
        tab.setDefaultTimeout(10_000);
        await session.signIn(tab);
        return tab;
      },
    });
  });
  afterAll(async () => {
    await session.browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
  });
  return session;
}
