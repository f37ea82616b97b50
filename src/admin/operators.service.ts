import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { DocumentCipher } from '../going-live/document-cipher';
import { generatePassword, hashPassword, verifyPassword } from '../organizations/secrets';
import { OperatorsRepository } from './operators.repository';
import { matchTotp, newTotpSecret, otpauthUri } from './totp';

/** What `operator:create --json` prints, once: the one-time password and the TOTP secret's URI. */
export interface CreatedOperator {
  id: string;
  email: string;
  password: string;
  otpauthUri: string;
}

/** Compared against when the email is unknown, so a missing operator costs the same scrypt as a wrong password. */
let noOperatorHash: Promise<string> | undefined;
const hashForNoOperator = () => (noOperatorHash ??= hashPassword(randomBytes(16).toString('hex')));

export class OperatorEmailTakenError extends Error {
  constructor(email: string) {
    super(`An operator with email ${email} already exists`);
  }
}

/** Operators' accounts: created from the CLI, signed in with a password and a TOTP code. */
@Injectable()
export class OperatorsService {
  constructor(
    private readonly repo: OperatorsRepository,
    private readonly cipher: DocumentCipher,
  ) {}

  /** An operator with a generated one-time password (to change at first sign-in) and a TOTP secret. */
  async create(emailInput: string): Promise<CreatedOperator> {
    const email = emailInput.trim().toLowerCase();
    const password = generatePassword();
    const secret = newTotpSecret();
    const sealed = this.cipher.seal(secret);
    const id = randomUUID();
    const inserted = await this.repo.insert({
      id,
      email,
      passwordHash: await hashPassword(password),
      totpKeyId: sealed.keyId,
      totpSealed: sealed.sealed,
    });
    if (!inserted) throw new OperatorEmailTakenError(email);
    return { id, email, password, otpauthUri: otpauthUri(secret, email) };
  }

  /**
   * The operator whose password and current TOTP code these are, or null (never which one was
   * wrong). The code's step is recorded used in the same check, so a code signs in once.
   */
  async checkSignIn(
    emailInput: string,
    password: string,
    code: string,
    atMs = Date.now(),
  ): Promise<{ id: string; email: string; mustChangePassword: boolean } | null> {
    const operator = await this.repo.byEmail(emailInput.trim().toLowerCase());
    const passwordOk = await verifyPassword(password, operator?.passwordHash ?? (await hashForNoOperator()));
    if (!operator || !passwordOk) return null;
    const secret = this.cipher.open({ keyId: operator.totpKeyId, sealed: operator.totpSealed });
    const step = matchTotp(secret, code.trim(), atMs, operator.lastTotpStep);
    if (step === null || !(await this.repo.useTotpStep(operator.id, step))) return null;
    return { id: operator.id, email: operator.email, mustChangePassword: operator.mustChangePassword };
  }

  /** The operator's own new password (at first sign-in, or later): false when `current` is wrong. */
  async changePassword(operatorId: string, current: string, next: string): Promise<boolean> {
    const row = await this.repo.passwordHashOf(operatorId);
    if (!row || !(await verifyPassword(current, row.passwordHash))) return false;
    await this.repo.setPassword(operatorId, await hashPassword(next));
    return true;
  }

  list(): Promise<{ id: string; email: string }[]> {
    return this.repo.list();
  }
}
