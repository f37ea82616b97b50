import { parseAppsText } from '../../src/admin/console/gimtel-apps.controller';
import { ADMIN_TEXTS } from '../../src/common/i18n/admin-texts';
import { startTestApp, TestApp } from '../helpers/app';
import { signedInOperator } from '../helpers/admin';
import { DASHBOARD_ENV, unescapeHtml } from '../helpers/dashboard';

/*
 * The member apps of the national switch in the operators' console (docs/transfers.md): an
 * operator edits the list (code, name), each change audited with the list before and after; a
 * wrong line is refused with its number. The list is shared by every environment, so this spec
 * only ever adds an app to it and puts it back as it was.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

const en = ADMIN_TEXTS.en;
const apps = () =>
  t.query<{ code: string; name: string }>('SELECT code, name FROM gimtel_apps ORDER BY position, code');

describe('parseAppsText', () => {
  it('reads one "code, name" a line, skipping blank lines, and names the first wrong line', () => {
    expect(parseAppsText(en, 'bankily, Bankily\n\n  bci_pay ,  BCI Pay \n')).toEqual({
      apps: [
        { code: 'bankily', name: 'Bankily' },
        { code: 'bci_pay', name: 'BCI Pay' },
      ],
    });
    expect(parseAppsText(en, 'bankily, Bankily\nClick')).toEqual({
      error: en.gimtelAppsInvalidLine.replace('{line}', '2'),
    });
    expect(parseAppsText(en, 'Bankily, Bankily')).toEqual({
      error: en.gimtelAppsInvalidLine.replace('{line}', '1'),
    });
    expect(parseAppsText(en, `x1, ${'n'.repeat(61)}`)).toEqual({
      error: en.gimtelAppsInvalidLine.replace('{line}', '1'),
    });
    expect(parseAppsText(en, 'click, Click\nclick, Click 2')).toEqual({
      error: en.gimtelAppsDuplicate.replace('{line}', '2').replace('{code}', 'click'),
    });
    expect(parseAppsText(en, '\n \n')).toEqual({ error: en.gimtelAppsEmpty });
  });
});

it('edits the apps list, audited with the list before and after, and refuses a wrong line', async () => {
  const { operator, browser } = await signedInOperator(t);
  const original = await apps();
  expect(original.map((a) => a.code)).toEqual(
    expect.arrayContaining(['bankily', 'sedad', 'click', 'amanty', 'bci_pay', 'bamis_digital', 'berid_cash']),
  );
  const page = await browser.get('/admin/gimtel-apps');
  expect(page.status).toBe(200);
  expect(unescapeHtml(page.text)).toContain(original.map((a) => `${a.code}, ${a.name}`).join('\n'));

  const refused = await browser.post('/admin/gimtel-apps', { apps: 'bankily, Bankily\nGBM' });
  expect(refused.status).toBe(400);
  expect(unescapeHtml(refused.text)).toContain(en.gimtelAppsInvalidLine.replace('{line}', '2'));
  expect(await apps()).toEqual(original);

  const added = [...original, { code: 'gbm_test', name: 'GBM' }];
  try {
    const saved = await browser.post('/admin/gimtel-apps', {
      apps: added.map((a) => `${a.code}, ${a.name}`).join('\n'),
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe('/admin/gimtel-apps?notice=gimtelAppsSaved');
    expect(await apps()).toEqual(added);
    const [entry] = await t.query(
      `SELECT actor, operator_id AS "operatorId", organization_id AS "organizationId", before, after
         FROM operator_audit_log WHERE action = 'gimtel_apps' AND operator_id = $1`,
      [operator.id],
    );
    expect(entry).toEqual({
      actor: operator.email,
      operatorId: operator.id,
      organizationId: null,
      before: { apps: original },
      after: { apps: added },
    });
    // The audit log page names the action.
    const audit = await browser.get('/admin/audit?action=gimtel_apps');
    expect(audit.status).toBe(200);
    expect(unescapeHtml(audit.text)).toContain(en.action_gimtel_apps);
  } finally {
    await browser.get('/admin/gimtel-apps');
    const restored = await browser.post('/admin/gimtel-apps', {
      apps: original.map((a) => `${a.code}, ${a.name}`).join('\n'),
    });
    expect(restored.status).toBe(303);
  }
  expect(await apps()).toEqual(original);
});
