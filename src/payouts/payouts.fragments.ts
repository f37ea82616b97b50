import { raw, Sql, sql } from '../database/sql';
import type { LedgerCheckContext } from '../ledger/ledger-checks';

/* The payouts side of the ledger's check (registered with LedgerChecks). */

/**
 * The payouts' part of the ledger check (registered with `LedgerChecks`, run in its statement):
 * every payout has its one `payout` transaction of minus its amount, in its environment and linked
 * to it, and a `payout_failure` of its amount, linked to it, exactly when it failed; no `payout` or
 * `payout_failure` transaction lacks its payout; the transactions linked to a payout are of its
 * environment and were available when it was made (by its `payout` transaction's time), and a
 * failed payout has none linked but its own two, which then sum to 0.
 */
export function payoutLedgerCheck(ctx: LedgerCheckContext): Sql {
  const tx = raw(ctx.payoutTransactions);
  return sql`
    SELECT p.environment_id, 'payout_transactions_differ', p.id,
           'payout of ' || p.amount || ' (' || p.status || '): debited ' || COALESCE(x.debit, 0) || ' in ' ||
           COALESCE(x.debits, 0) || ', credited back ' || COALESCE(x.credit, 0) || ' in ' || COALESCE(x.credits, 0)
      FROM payouts p
      LEFT JOIN (SELECT source_id, count(*) FILTER (WHERE type = 'payout') AS debits,
                        sum(amount) FILTER (WHERE type = 'payout') AS debit,
                        count(*) FILTER (WHERE type = 'payout_failure') AS credits,
                        sum(amount) FILTER (WHERE type = 'payout_failure') AS credit,
                        count(DISTINCT environment_id) AS environments,
                        min(environment_id::text)::uuid AS environment_id,
                        count(*) FILTER (WHERE payout_id IS DISTINCT FROM source_id) AS unlinked
                   FROM ${tx} GROUP BY source_id) x ON x.source_id = p.id
     WHERE COALESCE(x.debits, 0) <> 1 OR x.debit <> -p.amount
        OR x.environments <> 1 OR x.environment_id <> p.environment_id OR x.unlinked <> 0
        OR COALESCE(x.credits, 0) <> (CASE WHEN p.status = 'failed' THEN 1 ELSE 0 END)
        OR (p.status = 'failed' AND x.credit <> p.amount)
    UNION ALL
    SELECT t.environment_id, 'payout_transaction_without_payout', t.source_id,
           'a ' || t.type || ' transaction of ' || t.amount || ' whose payout does not exist'
      FROM ${tx} t WHERE NOT EXISTS (SELECT 1 FROM payouts p WHERE p.id = t.source_id)
    UNION ALL
    SELECT COALESCE(p.environment_id, l.environment_id), 'payout_links_differ', l.payout_id,
           CASE WHEN p.id IS NULL THEN l.n || ' transactions linked to a payout that does not exist'
                ELSE l.n || ' transactions of net ' || l.net || ' linked to a payout of ' || p.amount ||
                     ' (' || p.status || ')' END
      FROM ${raw(ctx.linked)} l
      LEFT JOIN payouts p ON p.id = l.payout_id
      LEFT JOIN ${tx} d ON d.source_id = l.payout_id AND d.type = 'payout'
     WHERE p.id IS NULL OR l.environments <> 1 OR l.environment_id <> p.environment_id
        OR p.status = 'failed' OR l.latest > d.available_on`;
}
