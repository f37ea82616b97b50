import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A user may have no password yet (docs/platforms.md "Hand the account over"): the owner of an
 * account a platform connected has none until they set theirs through an onboarding link, and a
 * later link for an account whose owner has a password changes nothing. Such owners used to get a
 * random password nobody knew; those whose account no link has handed over yet (no link used, the
 * password never changed) now have none.
 */
export class ConnectedOwnersWithoutPassword1796600000000 implements MigrationInterface {
  name = 'ConnectedOwnersWithoutPassword1796600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE users ALTER COLUMN password_hash DROP NOT NULL;
      UPDATE users u SET password_hash = NULL
        FROM organizations o
       WHERE o.id = u.organization_id AND o.platform_id IS NOT NULL AND u.password_changed_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM onboarding_links l WHERE l.organization_id = o.id AND l.used_at IS NOT NULL);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    // A hash no password matches (verifyPassword refuses anything but scrypt's format).
    await q.query(`
      UPDATE users SET password_hash = 'none' WHERE password_hash IS NULL;
      ALTER TABLE users ALTER COLUMN password_hash SET NOT NULL;
    `);
  }
}
