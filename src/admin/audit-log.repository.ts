import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Db } from '../database/db';
import { and, Sql, sql } from '../database/sql';

/** Who did it: an operator signed in to /admin, or the command line. */
export interface Actor {
  operatorId: string | null;
  /** The operator's email, or `cli`. */
  label: string;
}

export const CLI_ACTOR: Actor = { operatorId: null, label: 'cli' };

export interface AuditEntry {
  id: string;
  actor: string;
  operatorId: string | null;
  action: string;
  organizationId: string | null;
  before: unknown;
  after: unknown;
  createdAt: Date;
}

export interface AuditFilter {
  operatorId?: string;
  /** `cli`: the command line's entries. */
  actor?: 'cli';
  organizationId?: string;
  action?: string;
  /** Entries at or after this moment. */
  from?: Date;
  /** Entries before this moment. */
  to?: Date;
}

/** The operators' audit log: appended to, never changed (a trigger refuses UPDATE and DELETE). */
@Injectable()
export class AuditLogRepository {
  constructor(private readonly db: Db) {}

  async append(entry: {
    actor: Actor;
    action: string;
    organizationId: string | null;
    before: unknown;
    after: unknown;
  }): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO operator_audit_log (id, actor, operator_id, action, organization_id, before, after)
      VALUES (${randomUUID()}, ${entry.actor.label}, ${entry.actor.operatorId}, ${entry.action},
              ${entry.organizationId}, ${JSON.stringify(entry.before ?? null)}::jsonb,
              ${JSON.stringify(entry.after ?? null)}::jsonb)`);
  }

  /** Newest first, at most `limit` entries. */
  list(filter: AuditFilter, limit = 200): Promise<AuditEntry[]> {
    const where: Sql[] = [];
    if (filter.operatorId) where.push(sql`operator_id = ${filter.operatorId}`);
    if (filter.actor) where.push(sql`operator_id IS NULL AND actor = ${filter.actor}`);
    if (filter.organizationId) where.push(sql`organization_id = ${filter.organizationId}`);
    if (filter.action) where.push(sql`action = ${filter.action}`);
    if (filter.from) where.push(sql`created_at >= ${filter.from}`);
    if (filter.to) where.push(sql`created_at < ${filter.to}`);
    return this.db.many<AuditEntry>(sql`
      SELECT id, actor, operator_id AS "operatorId", action, organization_id AS "organizationId", before, after,
             created_at AS "createdAt"
        FROM operator_audit_log WHERE ${and(where)}
       ORDER BY created_at DESC, id DESC LIMIT ${limit}`);
  }
}
