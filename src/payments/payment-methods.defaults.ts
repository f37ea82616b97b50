/**
 * The bank apps a new environment starts with: three, of which only Bankily takes a pass code.
 * After that, which methods are enabled and what they are called is data in `payment_methods`.
 */
export const DEFAULT_PAYMENT_METHODS = [
  { type: 'bankily', name: 'Bankily', requiresPassCode: true },
  { type: 'masrivi', name: 'Masrivi', requiresPassCode: false },
  { type: 'sedad', name: 'Sedad', requiresPassCode: false },
] as const;

/** The transfer method every environment has, off until its owner turns it on (docs/transfers.md). */
export const TRANSFER_METHOD = { type: 'gimtel', name: 'GIMTEL', position: 10 } as const;

/** Sandbox's receiving wallet, preset so that `{ enabled: true }` suffices there. */
export const SANDBOX_RECEIVING_WALLET = { receivingBank: 'BANKILY', receivingPhone: '22220000' } as const;

/** A transfer received up to this long after its payment's claim expired still matches it. */
export const TRANSFER_CLAIM_GRACE_MINUTES = 2;

/** A member app of the national switch a customer may pay from. */
export interface GimtelApp {
  code: string;
  name: string;
}
