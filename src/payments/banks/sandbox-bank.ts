import {
  BankAdapter,
  BankAnswer,
  ChargeRequest,
  RefundAnswer,
  RefundRequest,
  StatusRequest,
  untilAborted,
} from './bank';

/**
 * The Sandbox bank (docs/api.md "The Sandbox bank"), by the last four digits of the customer's phone:
 * 9001 declined, 9002 no answer, 9003 pending until a simulated transfer, anything else completed.
 * Refunds of a payment paid from a phone ending 9004 (completed) fail; the others succeed.
 * A pass code, when the method takes one, must be 4 to 6 digits and `0000` is refused.
 */
export type SandboxBehaviour = 'completed' | 'declined' | 'no-answer' | 'pending';

export function sandboxBehaviour(phoneNumber: string, passCode?: string): SandboxBehaviour {
  if (passCode !== undefined && (!/^\d{4,6}$/.test(passCode) || passCode === '0000')) return 'declined';
  switch (phoneNumber.slice(-4)) {
    case '9001':
      return 'declined';
    case '9002':
      return 'no-answer';
    case '9003':
      return 'pending';
    default:
      return 'completed';
  }
}

/** The Sandbox bank: no state, no network; the same rules for every method. */
export class SandboxBank implements BankAdapter {
  constructor(private readonly method: string) {}

  async charge(request: ChargeRequest, signal: AbortSignal): Promise<BankAnswer> {
    if (request.passCode !== undefined && sandboxBehaviour('', request.passCode) === 'declined')
      return { status: 'declined', reason: 'wrong pass code', wrongPassCode: true };
    return this.answer(sandboxBehaviour(request.phoneNumber, request.passCode), request.reference, signal);
  }

  /**
   * The sandbox keeps no record, so a status is derived from the same rules: a pending (9003)
   * payment stays pending until a simulated transfer settles it.
   */
  async status(charge: StatusRequest, signal: AbortSignal): Promise<BankAnswer> {
    return this.answer(sandboxBehaviour(charge.phoneNumber), charge.reference, signal);
  }

  async refund(request: RefundRequest): Promise<RefundAnswer> {
    return sandboxRefund(request, this.method);
  }

  /** As `refund`: the sandbox keeps no record, the same rules answer. */
  async refundStatus(request: RefundRequest): Promise<RefundAnswer> {
    return sandboxRefund(request, this.method);
  }

  private async answer(
    behaviour: SandboxBehaviour,
    reference: string,
    signal: AbortSignal,
  ): Promise<BankAnswer> {
    // The whole id: its first characters are only its time, shared by payments of the same second.
    const bankReference = `sbx_${this.method}_${reference.replace(/-/g, '')}`;
    switch (behaviour) {
      case 'completed':
        return { status: 'completed', bankReference };
      case 'pending':
        return { status: 'pending', bankReference };
      case 'declined':
        return { status: 'declined', reason: 'declined by the sandbox bank' };
      case 'no-answer':
        return untilAborted(signal);
    }
  }
}

/** A Sandbox refund: failed for a payment paid from a phone ending 9004, else succeeded at once. */
export function sandboxRefund(request: RefundRequest, method: string): RefundAnswer {
  return request.phoneNumber.endsWith('9004')
    ? { status: 'failed', reason: 'refused by the sandbox bank' }
    : { status: 'succeeded', bankReference: `sbx_${method}_rf_${request.reference.replace(/-/g, '')}` };
}
