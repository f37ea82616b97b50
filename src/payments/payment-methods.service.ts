import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Tenant } from '../auth/tenant';
import { CommonError, commonError } from '../common/errors/common-errors';
import { assertPhone } from '../common/validation/rules';
import { AppConfig } from '../config/config';
import { payoutBanks } from '../going-live/payout-account';
import { EnvironmentSetup } from '../organizations/environment-setup';
import { PaymentMethod } from './payment';
import { GimtelApp } from './payment-methods.defaults';
import { PaymentError, paymentError } from './payments.errors';
import { PaymentsRepository } from './payments.repository';

/** PUT /configuration/gimtel: what changes (absent: as it is; `enabled` defaults to true). */
export interface GimtelConfigurationChange {
  receivingBank?: string;
  receivingPhone?: string;
  enabled?: boolean;
}

@Injectable()
export class PaymentMethodsService implements OnModuleInit {
  constructor(
    private readonly repo: PaymentsRepository,
    private readonly environmentSetup: EnvironmentSetup,
    private readonly config: AppConfig,
  ) {}

  /** Every new environment starts with the default bank apps and the transfer method, off. */
  onModuleInit(): void {
    this.environmentSetup.register('payment-methods', (environment) =>
      this.repo.insertDefaultMethods(environment),
    );
  }

  /** The payment methods enabled for the environment, in display order (a transfer method with its apps). */
  async listEnabled(environmentId: string): Promise<PaymentMethod[]> {
    return this.withApps(await this.repo.enabledMethods(environmentId));
  }

  /** Every payment method of the environment, enabled or not, in display order. */
  async listAll(environmentId: string): Promise<PaymentMethod[]> {
    return this.withApps(await this.repo.methods(environmentId));
  }

  /** An enabled method of the environment, or 404 `Payment method not found`. */
  async findEnabled(environmentId: string, id: string): Promise<PaymentMethod> {
    const method = await this.repo.enabledMethod(environmentId, id);
    if (!method) throw paymentError(PaymentError.MethodNotFound);
    return (await this.withApps([method]))[0];
  }

  /** The environment's transfer method (GIMTEL), enabled or not, with its apps. */
  async transferMethod(environmentId: string): Promise<PaymentMethod> {
    return (await this.withApps([(await this.repo.transferMethod(environmentId))!]))[0];
  }

  /**
   * Turns the environment's transfer method on or off and sets its receiving wallet (docs/transfers.md):
   * the bank from PAYOUT_BANKS or a member app's code (400 `Invalid receiving bank`), the phone (400
   * `Invalid phone number`); Production only for a verified organization (400 `Organization is not
   * verified`), and an enabled method always has both (Sandbox's are preset).
   */
  async configureGimtel(tenant: Tenant, change: GimtelConfigurationChange): Promise<PaymentMethod> {
    const current = await this.repo.transferMethod(tenant.environmentId);
    const enabled = change.enabled ?? true;
    const receivingBank =
      change.receivingBank === undefined
        ? current!.receivingBank
        : await this.receivingBankOf(change.receivingBank);
    const receivingPhone =
      change.receivingPhone === undefined ? current!.receivingPhone : assertPhone(change.receivingPhone);
    if (enabled && tenant.environment === 'production' && tenant.verification !== 'verified')
      throw paymentError(PaymentError.TransfersNeedVerification);
    if (enabled && !receivingBank) throw paymentError(PaymentError.InvalidReceivingBank);
    if (enabled && !receivingPhone) throw commonError(CommonError.InvalidPhoneNumber);
    const method = await this.repo.setTransferMethod(tenant.environmentId, {
      enabled,
      receivingBank,
      receivingPhone,
    });
    return (await this.withApps([method]))[0];
  }

  /** The member apps a customer may pay a transfer from (the operator's list), in display order. */
  gimtelApps(): Promise<GimtelApp[]> {
    return this.repo.gimtelApps();
  }

  /**
   * Replaces the member apps (an operator's change, for the console): codes of lowercase letters,
   * digits and `_`, names of 1 to 60 characters, at least one app, no code twice.
   */
  async setGimtelApps(apps: readonly GimtelApp[]): Promise<GimtelApp[]> {
    const codes = new Set(apps.map((a) => a.code));
    if (
      apps.length === 0 ||
      codes.size !== apps.length ||
      apps.some(
        (a) => !/^[a-z][a-z0-9_]{1,39}$/.test(a.code) || a.name.trim().length < 1 || a.name.length > 60,
      )
    )
      throw new RangeError(
        'apps: one or more, each a distinct code (a-z, 0-9, _) and a name of 1 to 60 characters',
      );
    await this.repo.replaceGimtelApps(apps.map((a) => ({ code: a.code, name: a.name.trim() })));
    return this.repo.gimtelApps();
  }

  /** A receiving bank's code, in capitals: a bank of PAYOUT_BANKS or a member app's code. */
  private async receivingBankOf(raw: string): Promise<string> {
    const bank = raw.trim().toUpperCase();
    const apps = (await this.repo.gimtelApps()).map((a) => a.code.toUpperCase());
    if (!payoutBanks(this.config.PAYOUT_BANKS).includes(bank) && !apps.includes(bank))
      throw paymentError(PaymentError.InvalidReceivingBank);
    return bank;
  }

  private async withApps(methods: PaymentMethod[]): Promise<PaymentMethod[]> {
    if (!methods.some((m) => m.flow === 'transfer')) return methods;
    const apps = await this.repo.gimtelApps();
    return methods.map((m) => (m.flow === 'transfer' ? { ...m, apps } : m));
  }
}
