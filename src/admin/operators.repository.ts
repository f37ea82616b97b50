import { Injectable } from '@nestjs/common';
import { Db } from '../database/db';
import { sql } from '../database/sql';

export interface OperatorRow {
  id: string;
  email: string;
  passwordHash: string;
  mustChangePassword: boolean;
  totpKeyId: string;
  totpSealed: Buffer;
  lastTotpStep: number | null;
}

/** The operators' accounts. */
@Injectable()
export class OperatorsRepository {
  constructor(private readonly db: Db) {}

  /** False when the email is taken. */
  async insert(operator: {
    id: string;
    email: string;
    passwordHash: string;
    totpKeyId: string;
    totpSealed: Buffer;
  }): Promise<boolean> {
    return (
      (await this.db.exec(sql`
        INSERT INTO operators (id, email, password_hash, totp_key_id, totp_sealed)
        VALUES (${operator.id}, ${operator.email}, ${operator.passwordHash}, ${operator.totpKeyId}, ${operator.totpSealed})
        ON CONFLICT (email) DO NOTHING`)) > 0
    );
  }

  byEmail(email: string): Promise<OperatorRow | undefined> {
    return this.db.one<OperatorRow>(sql`
      SELECT id, email, password_hash AS "passwordHash", must_change_password AS "mustChangePassword",
             totp_key_id AS "totpKeyId", totp_sealed AS "totpSealed", last_totp_step::float8 AS "lastTotpStep"
        FROM operators WHERE email = ${email}`);
  }

  /** Records `step` as used, unless it (or a later one) already was: false then (a replayed code). */
  async useTotpStep(id: string, step: number): Promise<boolean> {
    return (
      (await this.db.exec(sql`
        UPDATE operators SET last_totp_step = ${step}
         WHERE id = ${id} AND (last_totp_step IS NULL OR last_totp_step < ${step})`)) > 0
    );
  }
}
