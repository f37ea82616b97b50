import { randomBytes, randomUUID } from 'node:crypto';
import { ConnectedOwnersWithoutPassword1796600000000 } from '../../src/database/migrations/1796600000000-ConnectedOwnersWithoutPassword';
import { migrationDatabase } from '../helpers/migrations';

/*
 * Existing users when "no password yet" arrives (docs/platforms.md "Hand the account over"): the
 * owner of a connected account that no onboarding link has handed over loses the random password
 * nobody knew; every other user keeps theirs.
 */
jest.setTimeout(60_000);

const m = migrationDatabase(ConnectedOwnersWithoutPassword1796600000000);

it('clears the password of connected owners no link handed over, and only theirs', async () => {
  const db = m.db;
  const platform = randomUUID();
  await db.query(`INSERT INTO organizations (id, name, platform) VALUES ($1, 'Souk', true)`, [platform]);
  /** An organization (connected to the platform or not) and its owner; the owner's id. */
  const owner = async (connected: boolean, link?: 'used' | 'unused', passwordChanged = false) => {
    const organization = randomUUID();
    const user = randomUUID();
    await db.query(`INSERT INTO organizations (id, name, platform_id) VALUES ($1, 'Shop', $2)`, [
      organization,
      connected ? platform : null,
    ]);
    await db.query(
      `INSERT INTO users (id, organization_id, email, password_hash, role, password_changed_at)
         VALUES ($1, $2, $3, 'scrypt$16384$8$1$c2FsdA$aGFzaA', 'owner', CASE WHEN $4 THEN now() END)`,
      [user, organization, `${user}@shop.mr`, passwordChanged],
    );
    if (link)
      await db.query(
        `INSERT INTO onboarding_links (id, organization_id, token_hash, return_url, refresh_url, expires_at, used_at)
           VALUES ($1, $2, $3, 'https://souk.mr/done', 'https://souk.mr/link', now() + interval '1 hour',
                   CASE WHEN $4 THEN now() END)`,
        [randomUUID(), organization, randomBytes(32), link === 'used'],
      );
    return user;
  };
  const waiting = await owner(true);
  const waitingWithLink = await owner(true, 'unused');
  const onboarded = await owner(true, 'used');
  const changed = await owner(true, undefined, true);
  const direct = await owner(false);

  await m.migrateRest();

  const rows = (
    await db.query(`SELECT id, password_hash IS NOT NULL AS has FROM users WHERE id = ANY($1::uuid[])`, [
      [waiting, waitingWithLink, onboarded, changed, direct],
    ])
  ).rows as { id: string; has: boolean }[];
  const has = Object.fromEntries(rows.map((r) => [r.id, r.has]));
  expect([has[waiting], has[waitingWithLink], has[onboarded], has[changed], has[direct]]).toEqual([
    false,
    false,
    true,
    true,
    true,
  ]);
});
