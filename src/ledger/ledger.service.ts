import type { StreamableFile } from '@nestjs/common';
import { csvFile } from '../common/http/csv';
import { Injectable } from '@nestjs/common';
import type { Tenant } from '../auth/tenant';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import { BALANCE_TRANSACTION_CSV_COLUMNS, BalanceJson, BalanceTransactionJson } from './balance-transaction';
import { ListBalanceTransactionsQuery } from './dto/ledger.dto';
import { ledgerError, LedgerError } from './ledger.errors';
import { LedgerProblem, LedgerRepository } from './ledger.repository';
import { reportRange, SettlementRowJson } from './settlement-report';
import { SettlementReportRepository } from './settlement-report.repository';

/** The ledger check's answer: per environment, its totals and what differs; `ok` when nothing does. */
export interface LedgerCheck {
  ok: boolean;
  environments: Array<{
    environmentId: string;
    transactions: number;
    net: number;
    balance: number;
    problems: Omit<LedgerProblem, 'environmentId'>[];
  }>;
}

/** The balance of an environment and the transactions it sums. */
@Injectable()
export class LedgerService {
  constructor(
    private readonly repo: LedgerRepository,
    private readonly report: SettlementReportRepository,
  ) {}

  async balance(tenant: Tenant): Promise<BalanceJson> {
    return { ...(await this.repo.balance(tenant.environmentId)), currency: 'MRU' };
  }

  /** Every balance transaction the filters select, as CSV, streamed. */
  csv(tenant: Tenant, q: ListBalanceTransactionsQuery): StreamableFile {
    return csvFile(
      'balance-transactions',
      BALANCE_TRANSACTION_CSV_COLUMNS,
      this.repo.listAll(tenant.environmentId, q),
    );
  }

  async list(tenant: Tenant, q: ListBalanceTransactionsQuery): Promise<ListEnvelope<BalanceTransactionJson>> {
    const page = pageOf(q);
    const { items, total } = await this.repo.list(tenant.environmentId, q, page);
    return envelope(items, total, page);
  }

  /** The invariants of the ledger, over every environment (`npm run cli -- ledger:check`). */
  async check(): Promise<LedgerCheck> {
    const { problems, totals } = await this.repo.check();
    const byEnvironment = new Map<string, LedgerCheck['environments'][number]>();
    for (const t of totals) byEnvironment.set(t.environmentId, { ...t, problems: [] });
    for (const { environmentId, ...problem } of problems) {
      if (!byEnvironment.has(environmentId))
        byEnvironment.set(environmentId, {
          environmentId,
          transactions: 0,
          net: 0,
          balance: 0,
          problems: [],
        });
      byEnvironment.get(environmentId)!.problems.push(problem);
    }
    return { ok: problems.length === 0, environments: [...byEnvironment.values()] };
  }

  /** Per UTC day of [from, to] and bank app: payments, gross, fees, refunds, net (400 beyond 366 days). */
  async settlement(tenant: Tenant, from: string, to: string): Promise<SettlementRowJson[]> {
    const range = reportRange(from, to);
    if (!range) throw ledgerError(LedgerError.ReportRange);
    const days = await this.report.days(tenant.environmentId, range.start, range.end);
    return days.map((d) => ({ ...d, net: d.gross - d.fees - d.refunds }));
  }
}
