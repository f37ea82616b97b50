/**
 * The bank apps a new environment starts with: three, of which only Bankily takes a pass code.
 * After that, which methods are enabled and what they are called is data in `payment_methods`.
 */
export const DEFAULT_PAYMENT_METHODS = [
  { type: 'bankily', name: 'Bankily', requiresPassCode: true },
  { type: 'masrivi', name: 'Masrivi', requiresPassCode: false },
  { type: 'sedad', name: 'Sedad', requiresPassCode: false },
] as const;
