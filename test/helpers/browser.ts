/**
 * A real browser for the console tests: Debian's chromium driven by playwright-core (the browser
 * cannot be downloaded here; `.ci/run` apt-installs it when missing). The console is built first when
 * console/dist is missing or older than its sources. Screenshots go to test-results/console/ (not committed).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildConsole, consoleStale } from '../../src/server/console.js';
import { REPO_ROOT } from './cli.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-results', 'console');

// Without the last three flags chromium keeps calling hosts it cannot reach from here.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface ConsoleBrowser {
  browser: Browser;
  /** Uncaught errors of any console page (a test asserts there were none). */
  pageErrors: Error[];
  /** A new page (own cookies) at 1280×800, or a narrow phone-sized one. */
  newPage(opts?: { narrow?: boolean }): Promise<Page>;
  close(): Promise<void>;
}

/** Builds the console when needed and launches chromium (a fresh profile every time). */
export async function launchConsoleBrowser(): Promise<ConsoleBrowser> {
  if (consoleStale()) await buildConsole(() => {}, { onlyIfStale: true });
  if (!fs.existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium (or set CHROMIUM_PATH)`,
    );
  // launch() gives the browser a fresh temporary user-data-dir of its own, removed on close().
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  const contexts: BrowserContext[] = [];
  const pageErrors: Error[] = [];
  return {
    browser,
    pageErrors,
    async newPage(opts = {}) {
      const context = await browser.newContext(
        opts.narrow
          ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
          : { viewport: { width: 1280, height: 800 } },
      );
      // Shorter than the test's own timeout, so a missing element names itself instead of timing the test out.
      context.setDefaultTimeout(15_000);
      contexts.push(context);
      const page = await context.newPage();
      page.on('pageerror', (err) => pageErrors.push(err));
      return page;
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close();
    },
  };
}

/** Writes a full-page screenshot to test-results/console/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Signs in through the console's form and waits for the signed-in shell. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(baseUrl + '/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Opens a page from the main navigation by its title (on a narrow screen, through the Menu button). */
export async function openPage(page: Page, title: string): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  if (!(await nav.isVisible())) {
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav.waitFor();
  }
  await nav.getByRole('link', { name: title, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
}
