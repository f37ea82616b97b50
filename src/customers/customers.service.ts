import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Tenant } from '../auth/tenant';
import type { EnvironmentScope } from '../organizations/tenant';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import { assertPhone } from '../common/validation/rules';
import { TestClocksService } from '../test-clocks/test-clocks.service';
import type { KeysetPage, KeysetQuery } from '../database/keyset';
import { Customer, CustomerJson, CustomerLanguage, toCustomerJson } from './customer';
import { CustomerError, customerError } from './customers.errors';
import { CustomersRepository } from './customers.repository';
import type { CreateCustomerDto, ListCustomersQuery, UpdateCustomerDto } from './dto/customer.dto';

/** Customers are the organization's: any secret key of either environment sees the same ones. */
@Injectable()
export class CustomersService {
  constructor(
    private readonly repo: CustomersRepository,
    private readonly clocks: TestClocksService,
  ) {}

  async create(tenant: EnvironmentScope, dto: CreateCustomerDto): Promise<CustomerJson> {
    const phone = dto.phone === undefined ? null : assertPhone(dto.phone);
    // On a test clock: one of the key's environment (Sandbox only, 400; unknown there, 404).
    const clock = dto.testClockId === undefined ? null : await this.clocks.clockOf(tenant, dto.testClockId);
    const created = await this.repo.insert({
      ...newCustomer(tenant, dto.externalUserId, phone, dto.language),
      testClockId: clock?.id ?? null,
    });
    if (!created) throw customerError(CustomerError.ExternalUserIdTaken, dto.externalUserId);
    return toCustomerJson(created);
  }

  async update(tenant: EnvironmentScope, id: string, dto: UpdateCustomerDto): Promise<CustomerJson> {
    const phone = dto.phone === undefined || dto.phone === null ? dto.phone : assertPhone(dto.phone);
    const updated = await this.repo.update(tenant.organizationId, id, {
      externalUserId: dto.externalUserId,
      phone,
      language: dto.language,
    });
    if (updated === 'taken') throw customerError(CustomerError.ExternalUserIdTaken, dto.externalUserId);
    if (!updated) throw customerError(CustomerError.NotFound);
    return toCustomerJson(updated);
  }

  /** Newest first. */
  async list(tenant: Tenant, q: ListCustomersQuery): Promise<ListEnvelope<CustomerJson>> {
    const page = pageOf(q);
    const { rows, total } = await this.repo.list(tenant.organizationId, q, page);
    return envelope(rows.map(toCustomerJson), total, page);
  }

  /** A customer of the tenant's organization, or 404 `Customer not found`. */
  async get(tenant: Pick<Tenant, 'organizationId'>, id: string): Promise<Customer> {
    const customer = await this.repo.byId(tenant.organizationId, id);
    if (!customer) throw customerError(CustomerError.NotFound);
    return customer;
  }

  /** A customer of the organization (either environment), or undefined. */
  findInOrganization(organizationId: string, id: string): Promise<Customer | undefined> {
    return this.repo.byId(organizationId, id);
  }

  /** The organization's customer with this externalUserId, or undefined. */
  findByExternalUserId(organizationId: string, externalUserId: string): Promise<Customer | undefined> {
    return this.repo.byExternalUserId(organizationId, externalUserId);
  }

  /**
   * A keyset page of the organization's customers, newest first; `q` is an externalUserId or a
   * phone, `testClockId` keeps those on that clock.
   */
  search(
    organizationId: string,
    filter: { q?: string; testClockId?: string },
    page: KeysetQuery,
  ): Promise<KeysetPage<Customer>> {
    return this.repo.search(organizationId, filter, page);
  }

  /** Locks these customers (in id order) until the transaction ends: their credit balances. */
  lockCredits(ids: string[]): Promise<Map<string, number>> {
    return this.repo.lockCredits(ids);
  }

  /** The customer with this externalUserId, created if needed; a given phone (already normalised) replaces the stored one. */
  findOrCreate(
    tenant: Pick<Tenant, 'organizationId'>,
    externalUserId: string,
    phone: string | null,
  ): Promise<Customer> {
    return this.repo.upsert(newCustomer(tenant, externalUserId, phone));
  }
}

function newCustomer(
  tenant: Pick<Tenant, 'organizationId'>,
  externalUserId: string,
  phone: string | null,
  language: CustomerLanguage = 'fr',
): Customer {
  const now = new Date();
  return {
    id: randomUUID(),
    organizationId: tenant.organizationId,
    externalUserId,
    phone,
    language,
    creditBalance: 0,
    testClockId: null,
    createdAt: now,
    updatedAt: now,
  };
}
