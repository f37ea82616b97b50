import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { DASHBOARD_TEXTS, DashboardTexts } from '../../src/common/i18n/dashboard-texts';
import { OrganizationsService } from '../../src/organizations/organizations.service';
import { startWorkerApp, TestApp } from '../helpers/app';
import {
  ARTIFACTS,
  launchBrowser,
  screenshot,
  TestBrowser,
  seriousViolations,
  brokenWords,
} from '../helpers/browser';
import { billingData, DASHBOARD_ENV } from '../helpers/dashboard';
import { waitFor } from '../helpers/poll';
import { Receiver, WORKER_ENV } from '../webhooks/receiver';

/*
 * The dashboard in real Chromium, as a merchant meets it: sign up, create a key, use it on the
 * API, find the payment request, replay its webhook, switch to Production. Every page visited is
 * checked with axe-core (no serious or critical violation) and screenshotted at 360 and 1280 px.
 */
const DOCS_SCREENSHOTS = resolve(__dirname, '../../docs/screenshots');

let t: TestApp;
let b: TestBrowser;
let base: string;
let receiver: Receiver;
let receiverDown = true;

beforeAll(async () => {
  t = await startWorkerApp({ ...DASHBOARD_ENV, ...WORKER_ENV });
  const { port } = t.app.getHttpServer().address() as { port: number };
  base = `http://127.0.0.1:${port}`;
  b = await launchBrowser();
  // Down until told otherwise: the delivery fails its attempts, then succeeds once replayed.
  receiver = new Receiver((_n, _hit, res) => {
    if (receiverDown) res.writeHead(500, { 'content-type': 'text/plain' }).end('receiver is down');
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  });
  await receiver.start();
});
afterAll(async () => {
  await receiver?.stop();
  await b?.close();
  await t?.close();
});

/** Copies a screenshot to docs/screenshots/ (the README's) when asked to: a test run leaves the tree as it was. */
function keepForReadme(artifact: string, name: string): void {
  if (!process.env.UPDATE_SCREENSHOTS) return;
  mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
  copyFileSync(join(ARTIFACTS, artifact), join(DOCS_SCREENSHOTS, name));
}

/** The page passes axe, at both widths, and is saved at both. */
async function check(page: Page, name: string): Promise<void> {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
    expect(await seriousViolations(page)).toEqual([]);
    // Nothing wider than the screen: the page is usable at 360 px without sideways scrolling.
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect({ name, width, overflow: Math.max(0, overflow) }).toEqual({ name, width, overflow: 0 });
    expect({ name, width, broken: await brokenWords(page) }).toEqual({ name, width, broken: [] });
    await screenshot(page, `dashboard-${name}-${width}`);
  }
}

it('signs up, creates a key, uses it, finds the request, replays its webhook and switches to Production', async () => {
  const context = await b.browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  const email = 'mohamed@epicerie-du-port.mr'; // the run's database is new: the email is free

  // Sign up.
  await page.goto(`${base}/dashboard/login`);
  await check(page, 'login');
  await page.click('text=Create an account');
  await check(page, 'signup');
  await page.fill('#name', 'Épicerie du Port');
  await page.fill('#email', email);
  await page.fill('#password', 'a long enough password');
  await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('button[type=submit]')]);
  expect(await page.textContent('[data-testid=organization]')).toBe('Épicerie du Port');
  expect(await page.getAttribute('[data-testid=environment-banner]', 'data-environment')).toBe('sandbox');

  // Create a secret key: shown once.
  await page.click('nav >> text=API keys');
  await page.fill('#key-name', 'Shop server');
  await page.click('[data-testid=create-key]');
  const key = (await page.textContent('[data-testid=new-key]'))!.trim();
  expect(key).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
  await check(page, 'key-created');
  await page.click('text=Back to API keys');
  expect(await page.textContent('[data-testid=keys]')).toContain(key.slice(-4));
  await check(page, 'keys');
  expect(await page.content()).not.toContain(key);

  // An endpoint for the webhooks, through the dashboard.
  await page.click('nav >> text=Webhooks');
  await page.fill('#url', receiver.url);
  await page.click('[data-testid=add-endpoint]');
  expect(await page.textContent('[data-testid=webhook-secret]')).toMatch(/^whsec_/);
  await page.click('text=Back');
  await page.waitForSelector('[data-testid=endpoint-detail]');
  await check(page, 'webhook');

  // Use the key on the API.
  const created = await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', key)
    .send({ transactionId: 'browser-order-1', amount: 12500, phoneNumber: '22123456' });
  expect(created.status).toBe(200);
  await waitFor(() => receiver.hits.length >= 1 || undefined, 'the first delivery');

  // Find the payment request.
  await page.click('nav >> text=Payment requests');
  await page.fill('#q', 'browser-order-1');
  await page.press('#q', 'Enter');
  await page.waitForSelector('[data-testid=payment-request]');
  await check(page, 'payment-requests');
  await page.click('text=browser-order-1');
  await page.waitForSelector('[data-testid=payment-request-detail]');
  expect((await page.textContent('[data-testid=payment-request-detail]'))!.replace(/\s/g, ' ')).toContain(
    '12,500 MRU',
  );

  // Its webhook failed once; replay it.
  await waitFor(async () => {
    await page.reload();
    return (await page.textContent('[data-testid=delivery-status]'))?.includes('Failed') || undefined;
  }, 'the failed delivery in the page');
  await check(page, 'payment-request');
  receiverDown = false;
  const hitsBefore = receiver.hits.length;
  await page.click('[data-testid=replay]');
  await page.waitForSelector('[data-testid=notice]');
  await waitFor(() => receiver.hits.length > hitsBefore || undefined, 'the replayed delivery');
  await page.click('nav >> text=Webhook log');
  await waitFor(async () => {
    await page.reload();
    return (await page.textContent('[data-testid=delivery-status]'))?.includes('Succeeded') || undefined;
  }, 'the delivery succeeded in the log');
  await check(page, 'deliveries');
  await page.click('[data-testid=delivery] a.mono');
  await page.waitForSelector('[data-testid=attempts]');
  expect(await page.locator('[data-testid=attempt]').count()).toBe(hitsBefore + 1);
  expect(await page.textContent('[data-testid=attempts]')).toContain('receiver is down');
  await check(page, 'delivery');
  for (const [path, name] of [
    ['/dashboard/team', 'team'],
    ['/dashboard/account', 'account'],
    ['/dashboard/payments', 'payments'],
    ['/dashboard/payment-methods', 'payment-methods'],
    ['/dashboard/transfers', 'transfers'],
    ['/dashboard/no-such-page', 'not-found'],
  ]) {
    await page.goto(`${base}${path}`);
    await check(page, name);
  }

  // The overview, with its chart.
  await page.click('nav >> text=Home');
  await page.waitForSelector('[data-testid=chart]');
  await check(page, 'home');

  // Switch to Production: marked on every page, and the Sandbox request is not there.
  await page.click('[data-testid=env-production]');
  await page.waitForSelector('body[data-environment=production]');
  expect(await page.getAttribute('[data-testid=env-production]', 'aria-pressed')).toBe('true');
  expect(await page.textContent('[data-testid=environment-banner]')).toContain('Production');
  await page.click('nav >> text=Payment requests');
  expect(await page.locator('[data-testid=payment-request]').count()).toBe(0);
  await page.click('nav >> text=API keys');
  await check(page, 'keys-production');
  await context.close();

  // One of them illustrates the README (refreshed with UPDATE_SCREENSHOTS=1).
  keepForReadme('dashboard-payment-request-360.png', 'dashboard-payment-request-360.png');
});

it('sells a plan: creates a product and its price, sees the subscription made through the API, its invoice and pay link, at 360 and 1280 px', async () => {
  const org = await t.app
    .get(OrganizationsService)
    .create({ name: 'Salle de sport Ksar', email: 'sidi@sport-ksar.mr' });
  const context = await b.browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  // Nothing is loaded from another host.
  const elsewhere: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(base)) elsewhere.push(r.url());
  });
  await page.goto(`${base}/dashboard/login`);
  await page.fill('#email', org.email);
  await page.fill('#password', org.password);
  await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('button[type=submit]')]);

  // A product and its price, in the dashboard.
  await page.click('nav >> text=Products');
  await check(page, 'products-empty');
  await page.fill('#product-name', 'Abonnement mensuel');
  await page.fill('#product-description', 'Accès illimité à la salle');
  await page.click('[data-testid=create-product]');
  await page.waitForSelector('[data-testid=product-detail]');
  await page.fill('#new-amount', '2500');
  await page.selectOption('#new-interval', 'monthly');
  await page.click('[data-testid=add-price]');
  await page.waitForSelector('[data-testid=price]');
  expect((await page.textContent('[data-testid=price-text]'))!.replace(/\s/g, ' ')).toBe('2,500 MRU / month');
  const priceId = (await page.getAttribute('[data-testid=price]', 'data-id'))!;
  await check(page, 'product');
  await page.click('nav >> text=Products');
  expect(await page.locator('[data-testid=product]').count()).toBe(1);
  await check(page, 'products');

  // A customer subscribes through the API.
  const subscribed = await t.http
    .post('/api/v1/subscriptions/by-external-user')
    .set('Authorization', org.sandbox.secretKey)
    .send({ externalUserId: 'membre-1042', priceId, phone: '36 12 34 56' });
  expect(subscribed.status).toBe(200);
  const subscriptionId = subscribed.body.data.id as string;

  // The subscription, its invoice and the invoice's pay link, in the dashboard.
  await page.click('nav >> text=Subscriptions');
  await page.waitForSelector(`[data-testid=subscription][data-id="${subscriptionId}"]`);
  expect(await page.textContent('[data-testid=subscription-status]')).toBe('Active');
  await check(page, 'subscriptions');
  await page.click(`[data-testid=subscription][data-id="${subscriptionId}"] a.mono`);
  await page.waitForSelector('[data-testid=subscription-detail]');
  expect(await page.textContent('[data-testid=subscription-detail]')).toContain('membre-1042');
  const invoiceId = (await page.getAttribute('[data-testid=invoice]', 'data-id'))!;
  const payUrl = `${t.config.publicUrl}/checkout/invoices/${invoiceId}`;
  expect(await page.getAttribute('[data-testid=invoice] [data-testid=pay-link]', 'href')).toBe(payUrl);
  await check(page, 'subscription');

  await page.click('nav >> text=Invoices');
  await page.waitForSelector(`[data-testid=invoice][data-id="${invoiceId}"]`);
  expect(await page.textContent('[data-testid=invoice-status]')).toBe('Pending');
  await check(page, 'invoices');
  await page.click(`[data-testid=invoice][data-id="${invoiceId}"] a >> text=membre-1042`);
  await page.waitForSelector('[data-testid=invoice-detail]');
  expect(await page.textContent('[data-testid=pay-url]')).toBe(payUrl);
  expect(await page.getAttribute('[data-testid=send-sms]', 'href')).toMatch(/^sms:\+22236123456\?body=/);
  expect(await page.getAttribute('[data-testid=send-whatsapp]', 'href')).toMatch(
    /^https:\/\/wa\.me\/22236123456\?text=/,
  );
  await check(page, 'invoice');
  await page.click('[data-testid=payment-request-link]');
  await page.waitForSelector('[data-testid=payment-request-detail]');
  expect(await page.textContent('[data-testid=invoice]')).toBe(invoiceId);

  await page.click('nav >> text=Customers');
  await check(page, 'customers');
  await page.click('text=membre-1042');
  await page.waitForSelector('[data-testid=customer-detail]');
  await check(page, 'customer');

  // Pause, then cancel now: its unpaid invoice becomes void.
  await page.goto(`${base}/dashboard/subscriptions/${subscriptionId}`);
  await page.click('[data-testid=pause]');
  await page.waitForSelector('[data-testid=notice]');
  expect(await page.textContent('[data-testid=subscription-detail] [data-testid=subscription-status]')).toBe(
    'Paused',
  );
  await page.click('[data-testid=cancel-now]');
  await page.waitForSelector('[data-testid=notice]');
  expect(await page.textContent('[data-testid=subscription-detail] [data-testid=subscription-status]')).toBe(
    'Cancelled',
  );
  expect(await page.textContent('[data-testid=invoice-status]')).toBe('Void');
  await check(page, 'subscription-cancelled');
  expect(elsewhere).toEqual([]);
  await context.close();
  keepForReadme('dashboard-invoice-360.png', 'dashboard-invoice-360.png');
});

/** A month of a shop's payments, made before anyone looks (the overview keeps the final days it has read). */
async function seedMonth(environmentId: string): Promise<void> {
  await t.query(
    `INSERT INTO payment_requests (id, environment_id, transaction_id, amount, phone_number, status, paid_at, created_at, updated_at)
     SELECT gen_random_uuid(), $1, 'order-' || (10000 + i), 500 + (abs(hashint4(i)) % 40) * 250,
            (2 + i % 3)::text || lpad((abs(hashint4(i * 7)) % 10000000)::text, 7, '0'),
            CASE WHEN i % 9 = 0 THEN 'pending' ELSE 'paid' END, CASE WHEN i % 9 = 0 THEN NULL ELSE at END, at, at
       FROM generate_series(1, 420) i,
            LATERAL (SELECT now() - (abs(hashint4(i * 3)) % (CASE WHEN i % 4 = 0 THEN 8 ELSE 30 END)) * interval '1 day'
                               - (abs(hashint4(i * 5)) % 600) * interval '1 minute' AS at) x`,
    [environmentId],
  );
  await t.query(
    `INSERT INTO payments (id, environment_id, payment_request_id, payment_method_id, amount, phone_number, status,
                           failure_reason, completed_at, next_check_at, created_at, updated_at)
     SELECT gen_random_uuid(), pr.environment_id, pr.id, m.id, pr.amount, pr.phone_number,
            CASE WHEN pr.status = 'paid' THEN 'completed' ELSE 'failed' END,
            CASE WHEN pr.status = 'paid' THEN NULL ELSE 'declined by the bank' END,
            pr.paid_at, pr.created_at, pr.created_at, pr.created_at
       FROM payment_requests pr
       JOIN LATERAL (SELECT id FROM payment_methods WHERE environment_id = pr.environment_id
                      ORDER BY position OFFSET abs(hashint4(length(pr.transaction_id) + ascii(right(pr.transaction_id, 1)))) % 3 LIMIT 1) m ON true
      WHERE pr.environment_id = $1 AND pr.transaction_id LIKE 'order-%'`,
    [environmentId],
  );
}

it('shows a month of payments on the overview, its chart and rates, usable at 360 px and by keyboard', async () => {
  // A readable login for the README's screenshot (the run's database is new: the email is free).
  const org = await t.app
    .get(OrganizationsService)
    .create({ name: 'Boutique Tevragh Zeina', email: 'aicha@boutique-tevragh.mr' });
  await seedMonth(org.sandbox.environmentId);
  const context = await b.browser.newContext({ locale: 'fr-FR', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/dashboard/login`);
  expect(await page.getAttribute('html', 'lang')).toBe('fr');
  // Keyboard only: the email field has the focus, Tab goes to the password, Enter submits.
  expect(await page.evaluate<string>('document.activeElement.id')).toBe('email');
  await page.keyboard.type(org.email);
  await page.keyboard.press('Tab');
  expect(await page.evaluate<string>('document.activeElement.id')).toBe('password');
  await page.keyboard.type(org.password);
  await Promise.all([page.waitForURL(`${base}/dashboard`), page.keyboard.press('Enter')]);
  await page.waitForSelector('[data-testid=chart]');
  expect(await page.locator('[data-testid=chart] rect.bar').count()).toBe(30);
  expect(Number(await page.locator('[data-testid=paid-count]').last().textContent())).toBeGreaterThan(300);
  await check(page, 'overview-month');
  keepForReadme('dashboard-overview-month-1280.png', 'dashboard-home-1280.png');
  // Every control is reachable by Tab, each visibly focused.
  const stops: string[] = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate<string>(
      `(() => { const e = document.activeElement; const s = getComputedStyle(e);
         return e.tagName + ':' + (e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 30) + ':' + (s.outlineStyle !== 'none' ? 'outlined' : 'no-outline'); })()`,
    );
    stops.push(stop);
  }
  expect(stops.filter((s) => !s.startsWith('BODY') && s.endsWith('no-outline'))).toEqual([]);
  expect(stops.some((s) => s.startsWith('BUTTON:Production'))).toBe(true);
  expect(stops.some((s) => s.startsWith('A:Demandes de paiement'))).toBe(true);
  await context.close();
});

/** The labels (in `texts`) of the columns whose values are short and must never wrap. */
const shortColumns = (texts: DashboardTexts) =>
  [
    texts.status,
    texts.type,
    texts.amount,
    texts.created,
    texts.lastUsed,
    texts.expires,
    texts.expiresAt,
    texts.completedAt,
    texts.dueDate,
    texts.nextBilling,
    texts.attemptAt,
  ].filter((label, i, all) => all.indexOf(label) === i);

/**
 * The short cells of the page's tables, each with the number of lines its content takes (its
 * content's height over the cell's line height), and whether any table is cut off at its right.
 */
async function shortCells(
  page: Page,
  labels: string[],
): Promise<{ cells: { text: string; lines: number }[]; cutOff: number }> {
  return page.evaluate(`(() => {
    const labels = ${JSON.stringify(labels)};
    const cells = [...document.querySelectorAll('td[data-label]')].filter((td) => labels.includes(td.dataset.label));
    return {
      cells: cells.map((td) => {
        const range = document.createRange();
        range.selectNodeContents(td);
        const lineHeight = parseFloat(getComputedStyle(td).lineHeight);
        return {
          text: td.dataset.label + ': ' + td.textContent.trim(),
          lines: Math.round(range.getBoundingClientRect().height / lineHeight),
        };
      }),
      cutOff: [...document.querySelectorAll('.table')].filter((t) => t.scrollWidth > t.clientWidth).length,
    };
  })()`);
}

it('keeps short cells on one line at 1280 px, fits the chart’s labels in its box at 360 px, and serves a favicon', async () => {
  const org = await t.app
    .get(OrganizationsService)
    .create({ name: 'Quincaillerie Moderne de Nouadhibou', email: 'sidi@quincaillerie-ndb.mr' });
  // A record day (paid with the month's payments): the chart's amount labels at their longest.
  await t.query(
    `INSERT INTO payment_requests (id, environment_id, transaction_id, amount, phone_number, status, paid_at, created_at, updated_at)
     VALUES (gen_random_uuid(), $1, 'order-record', 9876543, '22123456', 'paid', now(), now(), now())`,
    [org.sandbox.environmentId],
  );
  await seedMonth(org.sandbox.environmentId);
  await billingData(t, org);

  const context = await b.browser.newContext({ locale: 'fr-FR', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(`${base}/dashboard/login`);
  await page.fill('#email', org.email);
  await page.fill('#password', org.password);
  await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('button[type=submit]')]);

  // 1280 px: no short cell wraps, and no table is cut off for it.
  const labels = shortColumns(DASHBOARD_TEXTS.fr);
  for (const path of ['keys', 'payment-requests', 'payments', 'subscriptions', 'invoices', 'customers']) {
    await page.goto(`${base}/dashboard/${path}`);
    const { cells, cutOff } = await shortCells(page, labels);
    expect({ path, checked: cells.length > 0 }).toEqual({ path, checked: true });
    expect({ path, wrapped: cells.filter((c) => c.lines !== 1).map((c) => c.text) }).toEqual({
      path,
      wrapped: [],
    });
    expect({ path, cutOff }).toEqual({ path, cutOff: 0 });
  }
  await page.goto(`${base}/dashboard/keys`);
  const types = await page.locator('[data-testid=key] td[data-label=Type]').allTextContents();
  expect(types.sort()).toEqual([DASHBOARD_TEXTS.fr.keyKind_publishable, DASHBOARD_TEXTS.fr.keyKind_secret]);

  // 360 px: every label of the chart inside the chart's box.
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto(`${base}/dashboard`);
  const outside = await page.evaluate<string[]>(`(() => {
    const chart = document.querySelector('[data-testid=chart]').getBoundingClientRect();
    return [...document.querySelectorAll('[data-testid=chart] text')]
      .map((text) => ({ text: text.textContent, box: text.getBoundingClientRect() }))
      .filter(({ box }) => box.left < chart.left - 0.5 || box.right > chart.right + 0.5 ||
        box.top < chart.top - 0.5 || box.bottom > chart.bottom + 0.5)
      .map(({ text, box }) => text + ' at ' + Math.round(box.left) + '..' + Math.round(box.right));
  })()`);
  expect(outside).toEqual([]);
  expect(await page.locator('[data-testid=chart] text').count()).toBeGreaterThan(3);

  // A favicon, linked from the page and served: no page load logs a 404.
  const icon = await page.getAttribute('link[rel=icon]', 'href');
  expect(icon).toBe('/favicon.ico');
  const res = await t.http.get('/favicon.ico');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^image\//);
  expect(failed).toEqual([]);
  await context.close();
});
