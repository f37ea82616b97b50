import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { CONSOLE_FORM_LIMITS } from '../../src/admin/console/admin.renderer';
import { REJECTION_REASON_MAX } from '../../src/admin/operator-actions.service';
import { ADMIN_TEXTS } from '../../src/common/i18n/admin-texts';
import { DASHBOARD_TEXTS } from '../../src/common/i18n/dashboard-texts';
import { EXTERNAL_ID_MAX } from '../../src/common/validation/fields';
import { FORM_LIMITS } from '../../src/dashboard/forms';
import { REFUND_REASON_MAX } from '../../src/ledger/dto/refund.dto';
import { PASSWORD_MIN } from '../../src/organizations/users';
import { LINK_LIMITS } from '../../src/payment-links/dto/payment-link.dto';
import { ORGANIZATION_NAME_MAX } from '../../src/platforms/dto/account.dto';
import { PRODUCT_LIMITS } from '../../src/products/dto/product.dto';

/*
 * The pages' forms reuse the API's limits (docs/architecture.md "Data access: one rule"): a field's
 * `maxlength` or `minlength` is the page's `limits` (FORM_LIMITS, taken from the DTOs and the rules
 * that check them), never a number written in a view. A one-time code keeps its six digits: a
 * format, which its `pattern` or its check states, not a limit of the API's.
 */
const VIEWS = resolve(__dirname, '../../views');

function viewsUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? viewsUnder(join(dir, e.name)) : e.name.endsWith('.hbs') ? [join(dir, e.name)] : [],
  );
}

it('no view writes a length limit of its own', () => {
  const restated = viewsUnder(VIEWS).flatMap((file) =>
    (readFileSync(file, 'utf8').match(/<(?:input|textarea)\b[^>]*>/g) ?? [])
      .filter((tag) => /\b(?:max|min)length="\d/.test(tag) && !tag.includes('autocomplete="one-time-code"'))
      .map((tag) => `${relative(VIEWS, file)}: ${tag}`),
  );
  expect(restated).toEqual([]);
});

it('every limit a view names is one of the limits its page is given', () => {
  const named = viewsUnder(VIEWS).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\{\{@root\.limits\.(\w+)\}\}/g)].map((m) => ({
      view: relative(VIEWS, file),
      name: m[1],
    })),
  );
  expect(named.length).toBeGreaterThan(10);
  const unknown = named.filter(
    ({ view, name }) => !Object.hasOwn(/(^|\/)admin\//.test(view) ? CONSOLE_FORM_LIMITS : FORM_LIMITS, name),
  );
  expect(unknown).toEqual([]);
});

it('each message about a limit names the limit the form checks, in every language', () => {
  const messages: [string, string, number][] = [];
  for (const [lang, t] of Object.entries(DASHBOARD_TEXTS))
    for (const [key, limit] of [
      ['productNameRequired', PRODUCT_LIMITS.name],
      ['descriptionTooLong', PRODUCT_LIMITS.description],
      ['invalidExternalUserId', EXTERNAL_ID_MAX],
      ['invalidManualPaymentReference', EXTERNAL_ID_MAX],
      ['reasonTooLong', REFUND_REASON_MAX],
      ['linkNameRequired', LINK_LIMITS.name],
      ['linkDescriptionTooLong', LINK_LIMITS.description],
      ['linkSuccessMessageTooLong', LINK_LIMITS.successMessage],
      ['nameRequired', ORGANIZATION_NAME_MAX],
      ['passwordTooShort', PASSWORD_MIN],
    ] as const)
      messages.push([`dashboard ${lang} ${key}`, t[key], limit]);
  for (const [lang, t] of Object.entries(ADMIN_TEXTS))
    messages.push([`admin ${lang} reasonRequired`, t.reasonRequired, REJECTION_REASON_MAX]);
  // Digits only: "2,000", "2 000" and "2000" all name 2000.
  const wrong = messages.filter(([, text, limit]) => !text.replace(/\D/g, '').includes(String(limit)));
  expect(wrong).toEqual([]);
});
