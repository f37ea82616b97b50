import { Injectable } from '@nestjs/common';
import type { Tenant } from '../auth/tenant';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import { BalanceJson, BalanceTransactionJson } from './balance-transaction';
import { ListBalanceTransactionsQuery } from './dto/ledger.dto';
import { LedgerRepository } from './ledger.repository';

/** The balance of an environment and the transactions it sums. */
@Injectable()
export class LedgerService {
  constructor(private readonly repo: LedgerRepository) {}

  async balance(tenant: Tenant): Promise<BalanceJson> {
    return { ...(await this.repo.balance(tenant.environmentId)), currency: 'MRU' };
  }

  async list(tenant: Tenant, q: ListBalanceTransactionsQuery): Promise<ListEnvelope<BalanceTransactionJson>> {
    const page = pageOf(q);
    const { items, total } = await this.repo.list(tenant.environmentId, q, page);
    return envelope(items, total, page);
  }
}
