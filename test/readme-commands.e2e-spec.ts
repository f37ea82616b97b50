import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { privateDatabase } from './helpers/app';

/**
 * The README's commands, run as a merchant copies them: their text is read from README.md, so the
 * README and these tests cannot drift apart.
 */
const ROOT = resolve(__dirname, '..');
const README = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
jest.setTimeout(180_000);

/** The first fenced block after `heading` in the README. */
function blockAfter(heading: string, fence = '```sh'): string {
  const from = README.indexOf(heading);
  expect(from).toBeGreaterThan(-1);
  const start = README.indexOf(fence + '\n', from) + fence.length + 1;
  return README.slice(start, README.indexOf('\n```', start));
}

/** The environment of a merchant's shell: none of the npm_* variables a parent `npm test` sets. */
function shellEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return { ...env, ...extra };
}

describe('Operator commands', () => {
  it('org:create --json prints nothing but the JSON on stdout, so it pipes into jq', async () => {
    const command = blockAfter('### Operator commands').trim();
    expect(command).toMatch(/^npm run .*org:create .*--json$/);
    const db = await privateDatabase();
    try {
      const stdout = execSync(command, {
        cwd: ROOT,
        env: shellEnv({ DATABASE_URL: db.url, LOG_LEVEL: 'info' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      }).toString();
      const created = JSON.parse(stdout) as Record<string, unknown>;
      expect(Object.keys(created).sort()).toEqual([
        'email',
        'organizationId',
        'password',
        'production',
        'sandbox',
      ]);
      expect(created.email).toBe('owner@example.mr');
    } finally {
      await db.drop();
    }
  });
});
