import { Injectable } from '@nestjs/common';
import { Db } from '../database/db';
import { raw, sql } from '../database/sql';
import type { Invitation, Role, User } from './users';

const USER_COLUMNS = raw(`id, organization_id AS "organizationId", email, role, created_at AS "createdAt"`);
const INVITATION_COLUMNS =
  raw(`id, organization_id AS "organizationId", email, role, invited_by AS "invitedBy",
  created_at AS "createdAt", expires_at AS "expiresAt"`);

/** Dashboard users, their passwords and roles, and the invitations that add them. */
@Injectable()
export class UsersRepository {
  constructor(private readonly db: Db) {}

  async emailTaken(email: string): Promise<boolean> {
    return (await this.db.one(sql`SELECT 1 FROM users WHERE email = ${email}`)) !== undefined;
  }

  async insertUser(user: {
    id: string;
    organizationId: string;
    email: string;
    /** null: none yet (the owner of a connected account, until an onboarding link sets it). */
    passwordHash: string | null;
    role: Role;
  }): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO users (id, organization_id, email, password_hash, role)
      VALUES (${user.id}, ${user.organizationId}, ${user.email}, ${user.passwordHash}, ${user.role})`);
  }

  /** A user by email (sign-in), with the password hash to check (null: no password yet). */
  userForSignIn(email: string): Promise<(User & { passwordHash: string | null }) | undefined> {
    return this.db.one(
      sql`SELECT ${USER_COLUMNS}, password_hash AS "passwordHash" FROM users WHERE email = ${email}`,
    );
  }

  passwordHashOf(userId: string): Promise<{ passwordHash: string | null } | undefined> {
    return this.db.one(sql`SELECT password_hash AS "passwordHash" FROM users WHERE id = ${userId}`);
  }

  /**
   * Locks the organization's first owner, the user an onboarding link gives a password
   * (docs/platforms.md "Hand the account over"), so two links used at once take turns.
   */
  lockFirstOwner(organizationId: string): Promise<{ id: string } | undefined> {
    return this.db.one(sql`
      SELECT id FROM users WHERE organization_id = ${organizationId} AND role = 'owner'
       ORDER BY created_at, id LIMIT 1 FOR UPDATE`);
  }

  /** Whether a user of the organization has a password (an onboarded connected account has). */
  async anyPassword(organizationId: string): Promise<boolean> {
    const row = await this.db.one<{ set: boolean }>(sql`
      SELECT EXISTS (SELECT 1 FROM users WHERE organization_id = ${organizationId} AND password_hash IS NOT NULL) AS set`);
    return row!.set;
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
}
