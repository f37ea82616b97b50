import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { webhookBody, webhookHeaders } from '../../src/webhooks/signing';
import { databaseEnv, privateDatabase } from '../helpers/app';
import { withBuildLock } from '../helpers/build';

/**
 * The README's commands and code, run as a merchant copies them: their text is read from
 * README.md, so the README and these tests cannot drift apart.
 */
const ROOT = resolve(__dirname, '../..');
const README = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
jest.setTimeout(180_000);

/** The first fenced block after `after` in the README. */
function blockAfter(after: string, fence = '```sh'): string {
  const from = README.indexOf(after);
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
      // The command builds dist/ (`npm run cli`), so under the lock the other suites' builds take.
      const stdout = withBuildLock(() =>
        execSync(command, {
          cwd: ROOT,
          env: shellEnv({ ...databaseEnv(db.url), LOG_LEVEL: 'info' }),
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      ).toString();
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

describe('Webhooks: the verification snippet', () => {
  const snippet = blockAfter('A receiver verifies', '```js');
  const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
  const rawBody = webhookBody({
    id: 'evt_1',
    kind: 'payment.completed',
    createdAt: new Date(),
    data: { amount: 1500 },
  });
  const signed = webhookHeaders({
    id: 'evt_1',
    kind: 'payment.completed',
    body: rawBody,
    timestamp: 1,
    secret,
  });

  /** The snippet as a merchant pastes it into a handler: `ok` for a request with these headers. */
  function verify(headers: Record<string, unknown>): unknown {
    const handler = `(() => {\n${snippet}\nreturn ok;\n})()`;
    return runInNewContext(handler, { require, Buffer, rawBody, req: { headers }, secret });
  }

  it('accepts the signature the service sends', () => {
    expect(verify({ 'x-webhook-signature': signed['x-webhook-signature'] })).toBe(true);
  });

  const good = signed['x-webhook-signature'];
  const forged = good.slice(0, -1) + (good.endsWith('0') ? '1' : '0');
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['short', good.slice(0, 20)],
    ['long', good + '00'],
    ['forged, same length', forged],
    [
      'another secret’s',
      webhookHeaders({
        id: 'evt_1',
        kind: 'payment.completed',
        body: rawBody,
        timestamp: 1,
        secret: 'whsec_other',
      })['x-webhook-signature'],
    ],
    ['without its prefix', good.slice('sha256='.length)],
    ['the same length in multi-byte characters', 'é'.repeat(good.length)],
    ['repeated (an array)', [good, good]],
  ])('answers false, without throwing, for this header: %s', (_what, header) => {
    expect(verify({ 'x-webhook-signature': header })).toBe(false);
  });
});
