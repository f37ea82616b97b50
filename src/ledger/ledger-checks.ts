import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql';

/**
 * What the ledger check gives a registered check, in its one statement: the names of CTEs over the
 * balance transactions (the check's snapshot), which a module above the ledger joins with its own
 * tables without naming the ledger's.
 */
export interface LedgerCheckContext {
  /** The `payout` and `payout_failure` transactions: `source_id`, `type`, `amount`, `environment_id`, `payout_id`, `available_on`. */
  payoutTransactions: string;
  /**
   * Per payout the other transactions are linked to (`payout_id`): `payout_id`, `n`, `net` (their
   * sum), `environments` (how many), `environment_id` (one of them), `latest` (the last `available_on`).
   */
  linked: string;
}

/** A registered check: a SELECT of problems, `(environment_id, kind, id, detail)`, one row each. */
export type LedgerCheck = (ctx: LedgerCheckContext) => Sql;

/**
 * The ledger check's extension point (docs/architecture.md): a module above the ledger whose
 * records the ledger's transactions must agree with (payouts) registers, when it starts, the
 * SELECT of its differences, which the check runs in its own statement, so in the same snapshot.
 */
@Injectable()
export class LedgerChecks {
  private readonly checks = new Map<string, LedgerCheck>();

  register(name: string, check: LedgerCheck): void {
    if (this.checks.has(name)) throw new Error(`the ledger check ${name} is registered twice`);
    this.checks.set(name, check);
  }

  all(): LedgerCheck[] {
    return [...this.checks.values()];
  }
}
