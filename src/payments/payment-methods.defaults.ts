import type { Queryable } from '../webhooks/outbox';

/**
 * The bank apps a new environment starts with (SPEC.md: three, only Bankily takes a pass code).
 * After that, which methods are enabled and what they are called is data in `payment_methods`.
 */
export const DEFAULT_PAYMENT_METHODS = [
  { type: 'bankily', name: 'Bankily', requiresPassCode: true },
  { type: 'masrivi', name: 'Masrivi', requiresPassCode: false },
  { type: 'sedad', name: 'Sedad', requiresPassCode: false },
] as const;

/** Run inside the transaction that creates the environment. */
export async function insertDefaultPaymentMethods(q: Queryable, environmentId: string): Promise<void> {
  await q.query(
    `INSERT INTO payment_methods (environment_id, type, name, requires_pass_code, code, position)
     SELECT $1, m.type, m.name, m.requires_pass_code, m.type, m.position
     FROM jsonb_to_recordset($2::jsonb) AS m(type text, name text, requires_pass_code boolean, position integer)`,
    [
      environmentId,
      JSON.stringify(
        DEFAULT_PAYMENT_METHODS.map((m, i) => ({
          type: m.type,
          name: m.name,
          requires_pass_code: m.requiresPassCode,
          position: i + 1,
        })),
      ),
    ],
  );
}
