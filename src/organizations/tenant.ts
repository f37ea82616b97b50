import type { VerificationStatus } from './verification';

export type EnvironmentKind = 'sandbox' | 'production';
export type KeyKind = 'secret' | 'publishable';

/** Who is asking: decided by the API key (or, for the hosted page, by the checkout session). */
export interface Tenant {
  organizationId: string;
  environmentId: string;
  environment: EnvironmentKind;
  keyKind: KeyKind;
  keyId: string;
  /** The organization's verification, read with the key: Production money waits for `verified`. */
  verification: VerificationStatus;
  /**
   * Set when a platform's key acts for one of its connected accounts (`Khoums-Account`): the
   * platform's organization and its environment of the same kind. The rest of the tenant is the
   * account's, except `keyId` and `keyKind`, the platform's key (rate limits count on it).
   */
  platform?: { organizationId: string; environmentId: string };
}

/** An environment just created, handed to the modules that set one up (payment methods, ...). */
export interface NewEnvironment {
  id: string;
  organizationId: string;
  kind: EnvironmentKind;
}

/** What a signed-in dashboard user, like an API key, works on: one environment of one organization. */
export type EnvironmentScope = Pick<Tenant, 'organizationId' | 'environmentId' | 'environment'>;
