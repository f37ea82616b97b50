import { OrganizationsRepository } from '../../src/organizations/organizations.repository';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, TestApp } from './app';
import { paidRequest } from './money';

export const GOOD_IBAN = 'MR1300020001010000123456753';
/** The Sandbox (and the bank simulator) fail a transfer to an IBAN ending in 0001. */
export const FAILING_IBAN = 'MR1300020001010000123450001';

/** Gives the organization an approved payout account (as org:create --payout-iban does). */
export async function approvedAccount(t: TestApp, organizationId: string, iban = GOOD_IBAN): Promise<void> {
  await t.app.get(OrganizationsRepository).savePayoutAccount(organizationId, {
    bank: 'BNM',
    holderName: 'Boutique Test',
    iban,
    status: 'approved',
  });
}

/** A fresh organization with an approved payout account. */
export async function payableTenant(t: TestApp, iban = GOOD_IBAN): Promise<CreatedOrganization> {
  const org = await newTenant(t);
  await approvedAccount(t, org.organizationId, iban);
  return org;
}

/** Completed payments of these amounts (the suites run with PAYOUT_DELAY_DAYS=0: available at once); their ids. */
export async function earn(t: TestApp, key: string, ...amounts: number[]): Promise<string[]> {
  const ids: string[] = [];
  for (const amount of amounts) ids.push((await paidRequest(t, key, amount)).payment.id as string);
  return ids;
}

export async function balanceOf(t: TestApp, key: string): Promise<{ available: number; pending: number }> {
  return (await t.http.get('/api/v1/balance').set('Authorization', key).expect(200)).body.data;
}

export function postPayout(t: TestApp, key: string, body: object = {}) {
  return t.http.post('/api/v1/payouts').set('Authorization', key).send(body);
}
