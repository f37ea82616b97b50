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

/** How every test browser runs: Debian's Chromium (never a downloaded browser), headless, no background traffic. */
export const BROWSER_LAUNCH = {
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
};

/**
 * The test browser: the run's shared Chromium when global-setup started one (KHOUMS_TEST_BROWSER_WS,
 * see `startSharedBrowser`), reached over Playwright's protocol, or else a Chromium of the suite's
 * own. A suite's contexts are its own either way (`close()` closes the ones it made and, for the
 * shared one, only disconnects). Playwright refuses `--user-data-dir` in `launch()`: it gives every
 * launch a fresh temporary profile itself.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const ws = process.env.KHOUMS_TEST_BROWSER_WS;
  const browser = ws ? await connectShared(ws) : await chromium.launch(BROWSER_LAUNCH);
  return {
    browser,
    close: () => browser.close(),
  };
}

/** The shared Chromium, once it listens (global-setup starts it without waiting for it). */
async function connectShared(ws: string): Promise<Browser> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await chromium.connect(ws, { timeout: 10_000 });
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(`the run's shared Chromium (${ws}) did not answer: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * Once per run (global-setup), when the run has browser suites: one Chromium server that every
 * suite connects to, on a port and path chosen here and put in KHOUMS_TEST_BROWSER_WS at once, so
 * that the run does not wait for the launch (the suites' connections wait for it instead). A
 * Chromium start took 2 to 4 s of a loaded 2-core machine, once per browser suite before.
 */
export function startSharedBrowser(port: number): { ws: string; stop(): Promise<void> } {
  const wsPath = `/khoums-${Math.random().toString(36).slice(2)}`;
  const server = chromium.launchServer({ ...BROWSER_LAUNCH, port, host: '127.0.0.1', wsPath });
  // A failed launch fails the suites that connect, with the connection's error; not the run's set-up.
  server.catch(() => undefined);
  return {
    ws: `ws://127.0.0.1:${port}${wsPath}`,
    stop: async () => {
      const s = await server.catch(() => undefined);
      await s?.close();
    },
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
  // Injected once per document (half of a check's time on a loaded machine was parsing axe again):
  // a second check of the same document, at another width say, runs the axe already there.
  if (await page.evaluate<boolean>(`typeof window.axe === 'undefined'`)) await page.evaluate(AXE);
  const violations = await page.evaluate<
    { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[]
  >(`axe.run({ resultTypes: ['violations'] }).then((r) => r.violations)`);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * The words the page shows broken across two lines: each run of a text node between break
 * opportunities (spaces, hyphens, slashes, the separator `·`) whose client rects lie on more than
 * one line. Text a page breaks on purpose (`word-break: break-all`: a full key or URL to copy), a
 * URL or an email address (they break where they must), a run wider than its whole box (it
 * cannot fit on one line), a `<pre>` block and text clipped out of sight (a visually hidden table head) are
 * left out. Empty: nothing broken.
 */
export async function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const broken = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    const hidden = (el) => {
      for (let a = el; a; a = a.parentElement) {
        if (a.clientWidth > 0 && a.clientWidth <= 2) return true;
        const s = getComputedStyle(a);
        if (s.display === 'none' || s.visibility === 'hidden') return true;
      }
      return false;
    };
    // Whether a run this wide fits on one line of its block: one wider than its whole box must break.
    const fitsIn = (el, width) => {
      let block = el;
      while (block.parentElement && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
      const s = getComputedStyle(block);
      return width <= block.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    };
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || el.closest('script,style,noscript,option,title,pre')) continue;
      if (getComputedStyle(el).wordBreak === 'break-all' || hidden(el)) continue;
      const text = node.textContent || '';
      if (text.includes('://') || /\\S@\\S/.test(text)) continue;
      for (const m of text.matchAll(/[^\\s\\-\\/\\u00b7\\u2013\\u2014]{2,}/g)) {
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = [...range.getClientRects()]
          .filter((r) => r.width > 0 && r.height > 0)
          .map((r) => r.top)
          .sort((a, b) => a - b);
        const lines = tops.filter((top, i) => i === 0 || top - tops[i - 1] > 6).length;
        if (lines > 1 && fitsIn(el, [...range.getClientRects()].reduce((w, r) => w + r.width, 0)))
          broken.push(m[0] + ' in "' + text.trim().slice(0, 80) + '"');
      }
    }
    return broken;
  })()`);
}

/** The browser fixture of a page spec: an app and Debian's Chromium, started before its tests and closed after. */
export interface BrowserFixture<A> {
  /** The app (set once beforeAll ran). */
  readonly t: A;
  readonly b: TestBrowser;
  /** The app's address, `http://127.0.0.1:<port>`. */
  readonly base: string;
}

/**
 * Registers beforeAll/afterAll starting `start()` (which gives the app and its address) and the
 * browser, closing both after the file's tests. The spec reads `fixture.t`, `.b`, `.base`.
 */
export function useBrowserFixture<A extends { close(): Promise<void> }>(
  start: () => Promise<{ app: A; base: string }>,
): BrowserFixture<A> {
  const state: { t?: A; b?: TestBrowser; base?: string } = {};
  beforeAll(async () => {
    const started = await start();
    state.t = started.app;
    state.base = started.base;
    state.b = await launchBrowser();
  });
  afterAll(async () => {
    await state.b?.close();
    await state.t?.close();
  });
  return {
    get t() {
      return state.t!;
    },
    get b() {
      return state.b!;
    },
    get base() {
      return state.base!;
    },
  };
}

/** A phone's context (360 × 780) in `lang`, with or without JavaScript. */
export function phoneContext(
  b: TestBrowser,
  lang: 'fr' | 'ar' | 'en',
  javaScriptEnabled = true,
): Promise<BrowserContext> {
  return b.browser.newContext({
    viewport: { width: 360, height: 780 },
    locale: { fr: 'fr-FR', ar: 'ar', en: 'en-GB' }[lang],
    javaScriptEnabled,
  });
}

/**
 * What every page of the browser specs must be, checked in one place: in `lang` (Arabic right to
 * left), axe-clean (no serious or critical violation), no wider than the screen, no word broken
 * across two lines. `name` labels each failure; a screenshot `screenshotName` goes to test-artifacts/.
 */
export async function expectPageFits(
  page: Page,
  lang: 'fr' | 'ar' | 'en',
  name: string,
  screenshotName: string,
): Promise<void> {
  await screenshot(page, screenshotName);
  expect({
    name,
    lang: await page.getAttribute('html', 'lang'),
    dir: await page.getAttribute('html', 'dir'),
  }).toEqual({ name, lang, dir: lang === 'ar' ? 'rtl' : 'ltr' });
  expect({ name, violations: await seriousViolations(page) }).toEqual({ name, violations: [] });
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  expect({ name, overflow: Math.max(overflow, 0) }).toEqual({ name, overflow: 0 });
  expect({ name, broken: await brokenWords(page) }).toEqual({ name, broken: [] });
}
