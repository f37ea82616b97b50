import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { OrganizationsService } from '../../src/organizations/organizations.service';
import type { TestApp } from './app';

let counter = 0;
const unique = () =>
  `${process.pid}-${Date.now()}-${(counter += 1)}-${Math.random().toString(36).slice(2, 8)}`;

/** A fresh platform: an organization marked `platform` (as `org:create --platform` makes it), with its keys. */
export function newPlatform(t: TestApp, name = 'Test Platform'): Promise<CreatedOrganization> {
  return t.app
    .get(OrganizationsService)
    .create({ name, email: `platform-${unique()}@test.khoums`, platform: true });
}

export interface ConnectedAccountJson {
  id: string;
  name: string;
  email: string;
  verification: {
    status: string;
    submittedAt: string | null;
    decidedAt: string | null;
    reason: string | null;
  };
  createdAt: string;
}

/** A merchant account connected to the platform by `POST /accounts` with its Sandbox secret key. */
export async function connectAccount(
  t: TestApp,
  platform: CreatedOrganization,
  name = 'Connected Merchant',
  key = platform.sandbox.secretKey,
): Promise<ConnectedAccountJson> {
  const res = await t.http
    .post('/api/v1/accounts')
    .set('Authorization', key)
    .send({ name, email: `merchant-${unique()}@test.khoums` });
  if (res.status !== 200) throw new Error(`POST /accounts: ${res.status} ${res.text}`);
  return res.body.data as ConnectedAccountJson;
}
