/* An organization's verification for Production (docs/going-live.md): a leaf, read by the tenant and the account alike. */

export const VERIFICATION_STATUSES = ['unverified', 'submitted', 'verified', 'rejected'] as const;

export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
