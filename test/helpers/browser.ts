import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server } from 'node:http';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const ARTIFACTS = resolve(__dirname, '../../test-artifacts');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface TestBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Debian's Chromium (never a downloaded browser), headless, no background traffic. Playwright
 * refuses `--user-data-dir` in `launch()`: it gives every launch a fresh temporary profile itself.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  return {
    browser,
    close: () => browser.close(),
  };
}

export function newContext(
  b: TestBrowser,
  options: { javaScriptEnabled?: boolean; locale?: string } = {},
): Promise<BrowserContext> {
  return b.browser.newContext({ viewport: { width: 390, height: 844 }, ...options });
}

/** Saves a full-page screenshot under test-artifacts/ (gitignored; kept by CI). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** A tiny merchant site on 127.0.0.1 that records the requests it receives. */
export interface MerchantSite {
  origin: string;
  hits: string[];
  close(): Promise<void>;
}

export async function startMerchantSite(): Promise<MerchantSite> {
  const hits: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    hits.push(req.url ?? '/');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><title>Merchant</title><h1 id="merchant-page">Back at the shop</h1></html>`,
    );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations on the page, one line each (rule, impact, help, where),
 * evaluated through the DevTools protocol, which the page's CSP does not govern.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate<
    { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[]
  >(`axe.run({ resultTypes: ['violations'] }).then((r) => r.violations)`);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
