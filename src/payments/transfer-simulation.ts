import { Injectable } from '@nestjs/common';
import type { Payment } from './payment';

/**
 * What a simulated transfer of a transfer payment does: the transfers module (above payments)
 * registers it when it starts, so that `POST /payment/:id/simulate-transfer` goes through the
 * real receiving and matching of a transfer (docs/transfers.md "Sandbox"). Answers whether the
 * transfer matched this payment.
 */
export type SimulateTransfer = (payment: Payment, organizationId: string) => Promise<boolean>;

@Injectable()
export class TransferSimulation {
  private simulate?: SimulateTransfer;

  register(simulate: SimulateTransfer): void {
    if (this.simulate) throw new Error('transfer simulation registered twice');
    this.simulate = simulate;
  }

  run(payment: Payment, organizationId: string): Promise<boolean> {
    if (!this.simulate) throw new Error('no transfer simulation registered');
    return this.simulate(payment, organizationId);
  }
}
