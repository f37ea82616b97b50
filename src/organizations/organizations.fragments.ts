import type { EnvironmentKind } from './tenant';
import { raw, Sql, sql, SqlRows, SqlValue } from '../database/sql';

/*
 * The organizations side of other modules' statements: an environment's organization, kind and fee
 * terms, and the tables joined to show a row with its environment. Declared here, with what each
 * gives; everything else of organizations and environments is their repositories'.
 */

/** SQL: the organization of an environment (`environmentId`, SQL naming it), for other modules' statements. */
export function organizationOfEnvironment(environmentId: Sql): SqlValue<string> {
  return sql`(SELECT organization_id FROM environments WHERE id = ${environmentId})`;
}

/** SQL: the kind (`sandbox` or `production`) of an environment (`environmentId`, SQL naming it), for other modules' statements. */
export function environmentKindOf(environmentId: Sql): SqlValue<EnvironmentKind> {
  return sql`(SELECT kind FROM environments WHERE id = ${environmentId})`;
}

/**
 * SQL after FROM or JOIN (LATERAL): one row with the organization of an environment
 * (`environmentId`, SQL naming it) and its fee rate, columns `organization_id` and `fee_bps` (basis
 * points; null: the default), for the ledger's statements.
 */
export function feeTermsOfEnvironment(
  environmentId: Sql,
): SqlRows<{ organization_id: string; fee_bps: number | null }> {
  return sql`(SELECT e.organization_id, o.fee_bps FROM environments e
      JOIN organizations o ON o.id = e.organization_id WHERE e.id = ${environmentId})`;
}

/**
 * SQL after FROM or JOIN (in parentheses): environments `e` (id, kind, organization_id) with their
 * organization `o` (name, verification_status, support_phone, website), for a statement that shows its own rows with their merchant (the hosted
 * pages, read in one statement).
 */
export const ENVIRONMENTS_WITH_ORGANIZATIONS = raw(`environments e
  JOIN organizations o ON o.id = e.organization_id`);

/**
 * SQL after FROM (in parentheses): users `u` with their organization `o` (name, verification_status)
 * and its environments `e`, for a statement that joins its own rows to a user and one of its
 * environments (the dashboard's session, read on every page in one statement).
 */
export const USERS_WITH_ENVIRONMENTS = raw(`users u
  JOIN organizations o ON o.id = u.organization_id
  JOIN environments e ON e.organization_id = u.organization_id`);

/**
 * SQL after FROM or JOIN (LATERAL): the environment of the same kind (`environment_id`) of the
 * platform (`organization_id`) that connected the organization of environment `environmentId`; no
 * row when it has none. For the statement that settles a payment (its application fee).
 */
export function platformEnvironmentOf(
  environmentId: Sql,
): SqlRows<{ environment_id: string; organization_id: string }> {
  return sql`(SELECT pe.id AS environment_id, pe.organization_id FROM environments ae
      JOIN organizations ao ON ao.id = ae.organization_id
      JOIN environments pe ON pe.organization_id = ao.platform_id AND pe.kind = ae.kind
     WHERE ae.id = ${environmentId})`;
}
