import type { EnvironmentKind } from '../organizations/tenant';
import type { Sql } from '../database/sql';

/*
 * The settlement's types, in a leaf (it imports no file of payments): how a payment ends, and what a
 * module's settlement extension may add to the settling statement. The statements (pay.statements.ts),
 * the settlement (settlement.ts) and the modules above payments that extend it all read them here.
 */

/** How a payment ends: the bank took the money, or it did not. */
export type Settlement =
  { status: 'completed'; bankReference: string | null } | { status: 'failed'; reason: string };

/** How a settled payment is counted in `khoums_payments_total`. */
export interface PaymentLabels {
  method: string;
  environment: EnvironmentKind;
}

/** What a settlement extension's SQL may refer to. */
export interface SettlementContext {
  /** Name of a CTE returning `id`: the payment requests this statement marks paid (none or one). */
  paid: string;
  /** Name of a CTE returning the settled payment's row (`status` completed or failed; none when it was no longer pending). */
  settled: string;
  /** The time of the settlement. */
  at: Date;
  /** The payment method the customer paid with (null: not known). */
  paymentMethodId: string | null;
  /**
   * Whether the settlement completes the payment (else it fails it). An extension adds only the
   * CTEs that outcome can need: every CTE is planned and started at each run of the statement.
   */
  completed: boolean;
}

/**
 * A module's part in paying a payment request: CTEs added to the statement that settles a
 * payment, so that what the module changes when a request is paid (the checkout session is
 * completed, the invoice is paid) commits in the same transaction as the payment, whichever
 * route paid it (pay, simulated transfer, reconciliation). Payments knows none of its callers.
 */
export interface SettlementExtension {
  /** Unique; its CTE names start with it. */
  name: string;
  /** `name_x AS (...), name_y AS (...)`, reading `ctx.paid`; null: nothing for this outcome. */
  ctes(ctx: SettlementContext): Sql | null;
}

/**
 * A caller's own change made by the settling statement itself, deciding whether the payment is
 * settled (a transfer's match: the transfer is stored as `matched` only when its payment can be
 * settled, and the payment is settled only when that transfer was stored, not already there). The
 * statement locks the request (when still payable) and the payment (when still pending), the order
 * every settlement takes, in a CTE named `payable` that `ctes` may read (the payment's id, or no
 * row); the payment is settled only when `when` holds too.
 */
export interface SettlementGate {
  /** `, name_x AS (...)…`, each name starting with the caller's module; may read `payable`. */
  ctes: Sql;
  /** SQL condition the settlement also needs. */
  when: Sql;
  /** One value (a scalar subquery on the gate's CTEs) returned beside the settled row, as `gate`. */
  select: Sql;
}
