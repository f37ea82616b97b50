import { Injectable } from '@nestjs/common';
import { Db } from '../database/db';
import { raw, Sql, sql } from '../database/sql';
import type { EnvironmentKind, KeyKind } from './tenant';
import type { Invitation, Role, User } from './users';

export interface KeyRow {
  id: string;
  kind: KeyKind;
  key_hash: Buffer;
  environment_id: string;
  organization_id: string;
  environment: EnvironmentKind;
  /** Milliseconds until a rolled key expires (measured by the database's clock); null when it does not. */
  ms_left: number | null;
}

/** A key as the dashboard lists it: never its hash. */
export interface ApiKeyInfo {
  id: string;
  kind: KeyKind;
  display: string;
  name: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

const KEY_INFO = raw(`id, kind, display, name, created_at AS "createdAt", last_used_at AS "lastUsedAt",
  expires_at AS "expiresAt"`);
const USER_COLUMNS = raw(`id, organization_id AS "organizationId", email, role, created_at AS "createdAt"`);
const INVITATION_COLUMNS =
  raw(`id, organization_id AS "organizationId", email, role, invited_by AS "invitedBy",
  created_at AS "createdAt", expires_at AS "expiresAt"`);

/** SQL: the organization of an environment (`environmentId`, SQL naming it), for other modules' statements. */
export function organizationOfEnvironment(environmentId: Sql): Sql {
  return sql`(SELECT organization_id FROM environments WHERE id = ${environmentId})`;
}

/**
 * SQL after FROM (in parentheses): users `u` with their organization `o` and its environments `e`,
 * for a statement that joins its own rows to a user and one of its environments (the dashboard's
 * session, read on every page in one statement).
 */
export const USERS_WITH_ENVIRONMENTS = raw(`users u
  JOIN organizations o ON o.id = u.organization_id
  JOIN environments e ON e.organization_id = u.organization_id`);

/** Organizations, their environments, dashboard users and API keys. */
@Injectable()
export class OrganizationsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The live key with this hash and its environment: the one statement of every authenticated
   * request. A rolled key is live until its expires_at.
   */
  liveKeyByHash(hash: Buffer): Promise<KeyRow | undefined> {
    return this.db.one<KeyRow>(sql`
      SELECT k.id, k.kind, k.key_hash, k.environment_id, k.organization_id, e.kind AS environment,
             (extract(epoch FROM k.expires_at - now()) * 1000)::float8 AS ms_left
        FROM api_keys k JOIN environments e ON e.id = k.environment_id
       WHERE k.key_hash = ${hash} AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())`);
  }

  /** The environment's live keys (rolled ones until they expire), newest first. */
  liveKeys(organizationId: string, environmentId: string): Promise<ApiKeyInfo[]> {
    return this.db.many<ApiKeyInfo>(sql`
      SELECT ${KEY_INFO} FROM api_keys
       WHERE organization_id = ${organizationId} AND environment_id = ${environmentId}
         AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
       ORDER BY created_at DESC, id DESC`);
  }

  /** A live key of the environment, locked (a roll reads it, then issues its successor). */
  lockLiveKey(organizationId: string, environmentId: string, id: string): Promise<ApiKeyInfo | undefined> {
    return this.db.one<ApiKeyInfo>(sql`
      SELECT ${KEY_INFO} FROM api_keys
       WHERE id = ${id} AND organization_id = ${organizationId} AND environment_id = ${environmentId}
         AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
       FOR UPDATE`);
  }

  /** The key stops working `delaySeconds` from now (or sooner, if it already expires sooner). */
  async expireKey(id: string, delaySeconds: number): Promise<Date> {
    const row = await this.db.one<{ expiresAt: Date }>(sql`
      UPDATE api_keys SET expires_at = LEAST(expires_at, now() + make_interval(secs => ${delaySeconds}))
       WHERE id = ${id} RETURNING expires_at AS "expiresAt"`);
    return row!.expiresAt;
  }

  async insertKey(key: {
    id: string;
    organizationId: string;
    environmentId: string;
    kind: KeyKind;
    hash: Buffer;
    display: string;
    name: string | null;
  }): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO api_keys (id, organization_id, environment_id, kind, key_hash, display, name)
      VALUES (${key.id}, ${key.organizationId}, ${key.environmentId}, ${key.kind}, ${key.hash}, ${key.display}, ${key.name})`);
  }

  /** Revokes a key of the organization (of one of its environments, when given). */
  async revokeKey(organizationId: string, keyId: string, environmentId?: string): Promise<boolean> {
    const changed = await this.db.exec(sql`
      UPDATE api_keys SET revoked_at = now()
       WHERE id = ${keyId} AND organization_id = ${organizationId} AND revoked_at IS NULL
         AND environment_id = COALESCE(${environmentId ?? null}::uuid, environment_id)`);
    return changed > 0;
  }

  async touchKeys(ids: string[]): Promise<void> {
    await this.db.exec(sql`UPDATE api_keys SET last_used_at = now() WHERE id = ANY(${ids}::uuid[])`);
  }

  async emailTaken(email: string): Promise<boolean> {
    return (await this.db.one(sql`SELECT 1 FROM users WHERE email = ${email}`)) !== undefined;
  }

  async insertOrganization(id: string, name: string): Promise<void> {
    await this.db.exec(sql`INSERT INTO organizations (id, name) VALUES (${id}, ${name})`);
  }

  async insertUser(user: {
    id: string;
    organizationId: string;
    email: string;
    passwordHash: string;
    role: Role;
  }): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO users (id, organization_id, email, password_hash, role)
      VALUES (${user.id}, ${user.organizationId}, ${user.email}, ${user.passwordHash}, ${user.role})`);
  }

  /** A user by email (sign-in), with the password hash to check. */
  userForSignIn(email: string): Promise<(User & { passwordHash: string }) | undefined> {
    return this.db.one(
      sql`SELECT ${USER_COLUMNS}, password_hash AS "passwordHash" FROM users WHERE email = ${email}`,
    );
  }

  passwordHashOf(userId: string): Promise<{ passwordHash: string } | undefined> {
    return this.db.one(sql`SELECT password_hash AS "passwordHash" FROM users WHERE id = ${userId}`);
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.db.exec(
      sql`UPDATE users SET password_hash = ${passwordHash}, password_changed_at = now() WHERE id = ${userId}`,
    );
  }

  /** The organization's users, oldest first. */
  users(organizationId: string): Promise<User[]> {
    return this.db.many<User>(
      sql`SELECT ${USER_COLUMNS} FROM users WHERE organization_id = ${organizationId} ORDER BY created_at, id`,
    );
  }

  /** Locks the organization's owners (changing who owns it keeps at least one). */
  lockOwners(organizationId: string): Promise<{ id: string }[]> {
    return this.db.many(
      sql`SELECT id FROM users WHERE organization_id = ${organizationId} AND role = 'owner' ORDER BY id FOR UPDATE`,
    );
  }

  setRole(organizationId: string, userId: string, role: Role): Promise<User | undefined> {
    return this.db.one<User>(sql`
      UPDATE users SET role = ${role} WHERE id = ${userId} AND organization_id = ${organizationId}
      RETURNING ${USER_COLUMNS}`);
  }

  deleteUser(organizationId: string, userId: string): Promise<User | undefined> {
    return this.db.one<User>(
      sql`DELETE FROM users WHERE id = ${userId} AND organization_id = ${organizationId} RETURNING ${USER_COLUMNS}`,
    );
  }

  user(organizationId: string, userId: string): Promise<User | undefined> {
    return this.db.one<User>(
      sql`SELECT ${USER_COLUMNS} FROM users WHERE id = ${userId} AND organization_id = ${organizationId}`,
    );
  }

  async insertInvitation(i: Invitation, tokenHash: Buffer): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO dashboard_invitations (id, organization_id, email, role, token_hash, invited_by, created_at, expires_at)
      VALUES (${i.id}, ${i.organizationId}, ${i.email}, ${i.role}, ${tokenHash}, ${i.invitedBy}, ${i.createdAt}, ${i.expiresAt})`);
  }

  /** Invitations not yet accepted, revoked or expired, newest first. */
  pendingInvitations(organizationId: string): Promise<Invitation[]> {
    return this.db.many<Invitation>(sql`
      SELECT ${INVITATION_COLUMNS} FROM dashboard_invitations
       WHERE organization_id = ${organizationId} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
       ORDER BY created_at DESC, id DESC`);
  }

  /** The usable invitation of a link, with its organization's name. */
  invitationByToken(tokenHash: Buffer): Promise<(Invitation & { organizationName: string }) | undefined> {
    return this.db.one(sql`
      SELECT ${raw(`i.id, i.organization_id AS "organizationId", i.email, i.role, i.invited_by AS "invitedBy",
             i.created_at AS "createdAt", i.expires_at AS "expiresAt", o.name AS "organizationName"`)}
        FROM dashboard_invitations i JOIN organizations o ON o.id = i.organization_id
       WHERE i.token_hash = ${tokenHash} AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()`);
  }

  /** Uses the invitation up; false when it was no longer usable (accepted, revoked or expired meanwhile). */
  async acceptInvitation(id: string): Promise<boolean> {
    return (
      (await this.db.exec(sql`
        UPDATE dashboard_invitations SET accepted_at = now()
         WHERE id = ${id} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()`)) > 0
    );
  }

  async revokeInvitation(organizationId: string, id: string): Promise<boolean> {
    return (
      (await this.db.exec(sql`
        UPDATE dashboard_invitations SET revoked_at = now()
         WHERE id = ${id} AND organization_id = ${organizationId} AND accepted_at IS NULL AND revoked_at IS NULL`)) >
      0
    );
  }

  organizationName(organizationId: string): Promise<{ name: string } | undefined> {
    return this.db.one(sql`SELECT name FROM organizations WHERE id = ${organizationId}`);
  }

  /** An environment of the organization. */
  environment(organizationId: string, kind: EnvironmentKind): Promise<{ id: string } | undefined> {
    return this.db.one(
      sql`SELECT id FROM environments WHERE organization_id = ${organizationId} AND kind = ${kind}`,
    );
  }

  async insertEnvironment(id: string, organizationId: string, kind: EnvironmentKind): Promise<void> {
    await this.db.exec(
      sql`INSERT INTO environments (id, organization_id, kind) VALUES (${id}, ${organizationId}, ${kind})`,
    );
  }

  async countOrganizations(): Promise<number> {
    const row = await this.db.one<{ count: number }>(sql`SELECT count(*)::int AS count FROM organizations`);
    return row!.count;
  }
}
