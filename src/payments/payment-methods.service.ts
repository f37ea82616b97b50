import { Injectable, OnModuleInit } from '@nestjs/common';
import { EnvironmentSetup } from '../organizations/environment-setup';
import { PaymentMethod } from './payment';
import type { GimtelApp } from './payment-methods.defaults';
import { PaymentError, paymentError } from './payments.errors';
import { PaymentsRepository } from './payments.repository';

@Injectable()
export class PaymentMethodsService implements OnModuleInit {
  constructor(
    private readonly repo: PaymentsRepository,
    private readonly environmentSetup: EnvironmentSetup,
  ) {}

  /** Every new environment starts with the default bank apps. */
  onModuleInit(): void {
    this.environmentSetup.register('payment-methods', (environment) =>
      this.repo.insertDefaultMethods(environment),
    );
  }

  /** The bank apps enabled for the environment, in display order. */
  listEnabled(environmentId: string): Promise<PaymentMethod[]> {
    return this.repo.enabledMethods(environmentId);
  }

  /** Every bank app of the environment, enabled or not, in display order. */
  listAll(environmentId: string): Promise<PaymentMethod[]> {
    return this.repo.methods(environmentId);
  }

  /** An enabled method of the environment, or 404 `Payment method not found`. */
  async findEnabled(environmentId: string, id: string): Promise<PaymentMethod> {
    const method = await this.repo.enabledMethod(environmentId, id);
    if (!method) throw paymentError(PaymentError.MethodNotFound);
    return method;
  }

  /** The environment's transfer method (GIMTEL), enabled or not: every environment has one. */
  async transferMethod(environmentId: string): Promise<PaymentMethod> {
    const method = await this.repo.transferMethod(environmentId);
    if (!method) throw paymentError(PaymentError.MethodNotFound);
    return method;
  }

  /** The member apps a customer may pay a transfer from, in display order (docs/transfers.md). */
  gimtelApps(): Promise<GimtelApp[]> {
    return this.repo.gimtelApps();
  }

  /** Replaces the member apps (the operators' console), in the order given. */
  replaceGimtelApps(apps: readonly GimtelApp[]): Promise<void> {
    return this.repo.replaceGimtelApps(apps);
  }
}
