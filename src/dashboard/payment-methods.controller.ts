import { Get } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { Post } from '../common/http/routes';
import { AppConfig } from '../config/config';
import { payoutBanks } from '../going-live/payout-account';
import type { GimtelApp } from '../payments/payment-methods.defaults';
import { PaymentMethodsService } from '../payments/payment-methods.service';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages } from './dashboard-pages';
import { Dash, DashboardRequest } from './dashboard-request';
import { apiFormMessage, FormMessage } from './forms';

/** The transfer form as typed, and what the API refused in it. */
interface TransferForm {
  enabled: boolean;
  receivingBank: string;
  receivingPhone: string;
  error?: FormMessage;
  bankInvalid?: boolean;
  phoneInvalid?: boolean;
}

/**
 * The environment's payment methods (docs/dashboard.md "Payment methods"): the bank apps, and the
 * transfer method (docs/transfers.md): turned on or off with its receiving wallet by the rules and
 * messages of `PUT /configuration/gimtel` (the same service), refusals in the page's language.
 */
@DashboardPages('payment-methods')
export class DashboardPaymentMethodsController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly methods: PaymentMethodsService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  async show(@Dash() d: DashboardRequest): Promise<void> {
    await this.render(d, 200);
  }

  /** `enabled` (a checkbox), `receivingBank`, `receivingPhone`: PUT /configuration/gimtel's body. */
  @Post('gimtel')
  async saveTransfers(@Dash() d: DashboardRequest): Promise<void> {
    const form: TransferForm = {
      enabled: d.field('enabled') === 'true',
      receivingBank: d.field('receivingBank').trim(),
      receivingPhone: d.field('receivingPhone').trim(),
    };
    try {
      await this.methods.configureGimtel(d.tenant, {
        enabled: form.enabled,
        // Empty: keep the wallet as it is (Sandbox's preset one, say), as the API's absent field.
        receivingBank: form.receivingBank || undefined,
        receivingPhone: form.receivingPhone || undefined,
      });
    } catch (err) {
      if (!AppError.is(err) || err.status >= 500) throw err;
      form.error = apiFormMessage(d.lang, err);
      form.bankInvalid = err.code === 'invalid_receiving_bank';
      form.phoneInvalid = err.code === 'invalid_phone_number';
      return this.render(d, err.status, form);
    }
    d.page.redirect('/dashboard/payment-methods?notice=gimtelSaved');
  }

  private async render(d: DashboardRequest, status: number, typed?: TransferForm): Promise<void> {
    const { t } = d;
    const [methods, transfer, apps] = await Promise.all([
      this.methods.listAll(d.scope.environmentId),
      this.methods.transferMethod(d.scope.environmentId),
      this.methods.gimtelApps(),
    ]);
    const form: TransferForm = typed ?? {
      enabled: transfer.enabled,
      receivingBank: transfer.receivingBank ?? '',
      receivingPhone: transfer.receivingPhone ?? '',
    };
    this.renderer.render(
      d,
      'payment-methods',
      t.paymentMethodsTitle,
      {
        methods: methods.map((m) => ({
          id: m.id,
          name: m.name,
          type: m.type,
          code: m.code,
          requiresPassCode: m.requiresPassCode ? t.yes : t.no,
          enabled: m.enabled,
          statusText: m.enabled ? t.enabled : t.disabled,
        })),
        gimtel: {
          intro: t.gimtelIntro,
          enabled: form.enabled,
          phone: form.receivingPhone,
          banks: this.banks(apps, form.receivingBank),
          error: form.error,
          bankInvalid: form.bankInvalid,
          phoneInvalid: form.phoneInvalid,
        },
      },
      status,
    );
  }

  /** The wallets' banks a merchant may choose: the member apps (by name), then the payout banks. */
  private banks(apps: GimtelApp[], selected: string) {
    const choices = [
      ...apps.map((a) => ({ value: a.code.toUpperCase(), label: a.name })),
      ...payoutBanks(this.config.PAYOUT_BANKS).map((code) => ({ value: code, label: code })),
    ].filter((c, i, all) => all.findIndex((o) => o.value === c.value) === i);
    // A bank typed (or stored) that is not in the list stays shown, so the form says what it holds.
    if (selected && !choices.some((c) => c.value === selected))
      choices.push({ value: selected, label: selected });
    return choices.map((c) => ({ ...c, selected: c.value === selected }));
  }
}
