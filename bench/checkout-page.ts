import autocannon from 'autocannon';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { CheckoutSessionsService } from '../src/checkout/checkout-sessions.service';
import { OrganizationsService } from '../src/organizations/organizations.service';
import { ApiKeysService } from '../src/organizations/api-keys.service';

/** Hosted page renders per second: GET /checkout/:id of one open session, French, 10 connections. */
export async function benchCheckoutPage(app: NestExpressApplication, origin: string, seconds: number): Promise<number> {
  const org = await app.get(OrganizationsService).create({ name: 'Bench Merchant', email: `bench-${Date.now()}@khoums.local` });
  const tenant = await app.get(ApiKeysService).authenticate(org.sandbox.secretKey);
  if (!tenant) throw new Error('bench tenant key did not authenticate');
  const session = await app
    .get(CheckoutSessionsService)
    .create(tenant, { transactionId: `bench_${Date.now()}`, amount: 1500, phoneNumber: '22123456', expiresInMinutes: 60 });
  const result = await autocannon({
    url: `${origin}/checkout/${session.id}`,
    connections: 10,
    duration: seconds,
    headers: { 'accept-language': 'fr' },
  });
  if (result.non2xx > 0) throw new Error(`checkout page bench: ${result.non2xx} non-2xx responses`);
  return result.requests.average;
}
