import { Injectable } from '@nestjs/common';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Db } from '../database/db';
import { OrganizationError, organizationError } from './organizations.errors';
import { UsersRepository } from './users.repository';
import { EmailTakenError } from './organizations.service';
import { hashPassword, verifyPassword } from './secrets';
import { Invitation, normalizeEmail, passwordProblem, Role, User } from './users';

const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

/** Compared against when the email is unknown, so a missing user costs the same scrypt as a wrong password. */
let noUserHash: Promise<string> | undefined;
const hashForNoUser = () => (noUserHash ??= hashPassword(randomBytes(16).toString('hex')));

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** 400 for a password out of bounds. */
export function assertPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem === 'too-short') throw organizationError(OrganizationError.PasswordTooShort);
  if (problem === 'too-common') throw organizationError(OrganizationError.PasswordTooCommon);
  if (problem === 'too-long') throw organizationError(OrganizationError.PasswordTooLong);
}

export function assertEmail(value: unknown): string {
  const email = normalizeEmail(value);
  if (!email) throw organizationError(OrganizationError.InvalidEmail);
  return email;
}

/** Dashboard users: signing in, passwords, roles and invitations. */
@Injectable()
export class UsersService {
  constructor(
    private readonly db: Db,
    private readonly repo: UsersRepository,
  ) {}

  /** The user with this email and password, or null (never saying which of the two was wrong). */
  async signIn(email: string, password: string): Promise<User | null> {
    const user = await this.repo.userForSignIn(email.trim().toLowerCase());
    // A user with no password yet costs the same scrypt and signs in with none.
    const ok = await verifyPassword(password, user?.passwordHash ?? (await hashForNoUser()));
    if (!user?.passwordHash || !ok) return null;
    return {
      id: user.id,
      organizationId: user.organizationId,
      email: user.email,
      role: user.role,
      createdAt: user.createdAt,
    };
  }

  /** Checks the current password, then stores the new one. The caller ends the user's other sessions. */
  async changePassword(userId: string, current: string, next: string): Promise<void> {
    assertPassword(next);
    const stored = await this.repo.passwordHashOf(userId);
    if (!stored) throw organizationError(OrganizationError.UserNotFound);
    if (!stored.passwordHash || !(await verifyPassword(current, stored.passwordHash)))
      throw organizationError(OrganizationError.WrongCurrentPassword);
    await this.repo.setPasswordHash(userId, await hashPassword(next));
  }

  users(organizationId: string): Promise<User[]> {
    return this.repo.users(organizationId);
  }

  user(organizationId: string, userId: string): Promise<User | undefined> {
    return this.repo.user(organizationId, userId);
  }

  pendingInvitations(organizationId: string): Promise<Invitation[]> {
    return this.repo.pendingInvitations(organizationId);
  }

  /** A one-time link's token (returned once; only its SHA-256 is stored), valid for 7 days. */
  async invite(
    organizationId: string,
    invitedBy: string,
    emailInput: unknown,
    role: Role,
  ): Promise<{ invitation: Invitation; token: string }> {
    const email = assertEmail(emailInput);
    if (await this.repo.emailTaken(email)) throw new EmailTakenError(email);
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const invitation: Invitation = {
      id: randomUUID(),
      organizationId,
      email,
      role,
      invitedBy,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    };
    await this.repo.insertInvitation(invitation, hashToken(token));
    return { invitation, token };
  }

  async invitation(token: string): Promise<Invitation & { organizationName: string }> {
    const invitation = await this.repo.invitationByToken(hashToken(token));
    if (!invitation) throw organizationError(OrganizationError.InvitationNotFound);
    return invitation;
  }

  /** Creates the invited user, once: the link is used up in the same transaction. */
  async acceptInvitation(token: string, password: string): Promise<User> {
    assertPassword(password);
    // A link that is no invitation costs no hashing (scrypt is the expensive step).
    await this.invitation(token);
    const passwordHash = await hashPassword(password);
    return this.db.transaction(async () => {
      const invitation = await this.invitation(token);
      if (!(await this.repo.acceptInvitation(invitation.id)))
        throw organizationError(OrganizationError.InvitationNotFound);
      if (await this.repo.emailTaken(invitation.email)) throw new EmailTakenError(invitation.email);
      const user: User = {
        id: randomUUID(),
        organizationId: invitation.organizationId,
        email: invitation.email,
        role: invitation.role,
        createdAt: new Date(),
      };
      await this.repo.insertUser({ ...user, passwordHash });
      return user;
    });
  }

  async revokeInvitation(organizationId: string, id: string): Promise<void> {
    if (!(await this.repo.revokeInvitation(organizationId, id)))
      throw organizationError(OrganizationError.InvitationNotFound);
  }

  /** A new role; the organization keeps at least one owner. */
  async changeRole(organizationId: string, userId: string, role: Role): Promise<User> {
    return this.db.transaction(async () => {
      const owners = await this.repo.lockOwners(organizationId);
      const user = await this.repo.user(organizationId, userId);
      if (!user) throw organizationError(OrganizationError.UserNotFound);
      if (user.role === 'owner' && role !== 'owner' && owners.length <= 1)
        throw organizationError(OrganizationError.LastOwner);
      return (await this.repo.setRole(organizationId, userId, role))!;
    });
  }

  /** Removes a user (their sessions go with them); the organization keeps at least one owner. */
  async remove(organizationId: string, userId: string): Promise<User> {
    return this.db.transaction(async () => {
      const owners = await this.repo.lockOwners(organizationId);
      const user = await this.repo.user(organizationId, userId);
      if (!user) throw organizationError(OrganizationError.UserNotFound);
      if (user.role === 'owner' && owners.length <= 1) throw organizationError(OrganizationError.LastOwner);
      return (await this.repo.deleteUser(organizationId, userId))!;
    });
  }
}
