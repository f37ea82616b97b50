import { execFileSync, execSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

/**
 * sdk/README.md's install line, run as written from a fresh clone (the SDK's tracked files, no
 * node_modules, no dist) into an empty project beside it; then the package is loaded from CommonJS
 * and from an ES module with node.
 */
const ROOT = resolve(__dirname, '../..');
const SDK = join(ROOT, 'sdk');
jest.setTimeout(240_000);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'khoums-sdk-install-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The README's line that installs the SDK from a clone. */
function installLine(): string {
  const readme = readFileSync(join(SDK, 'README.md'), 'utf8');
  const line = readme.split('\n').find((l) => l.startsWith('npm --prefix sdk ci'));
  expect(line).toBeDefined();
  return line!;
}

it('installs from a fresh clone with the README’s one line, with no runtime dependency, and loads from require and import', () => {
  const clone = join(dir, 'clone');
  cpSync(SDK, join(clone, 'sdk'), {
    recursive: true,
    filter: (path) => !/^(node_modules|dist)(\/|$)/.test(relative(SDK, path)),
  });
  const app = join(dir, 'your-app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'your-app', version: '1.0.0', private: true }),
  );

  const line = installLine();
  expect(line).toContain('../your-app');
  // A merchant's shell (none of a parent npm's variables); the npm cache serves what it holds.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  execSync(line, {
    cwd: clone,
    env: { ...env, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  // Nothing but the SDK itself was installed: it has no runtime dependency.
  expect(readdirSync(join(app, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['@khoums']);
  const manifest = JSON.parse(readFileSync(join(app, 'node_modules/@khoums/sdk/package.json'), 'utf8'));
  expect(manifest.dependencies ?? {}).toEqual({});
  expect(manifest.peerDependencies ?? {}).toEqual({});

  // Something trivial from each module format: a client, and a signature checked.
  const body = '{"id":"evt_1"}';
  const check = `
    const { createHmac } = require('node:crypto');
    const signature = 'sha256=' + createHmac('sha256', 'whsec_test').update('${body}').digest('hex');
    const client = new sdk.Khoums('pk_test_${'a'.repeat(40)}');
    Promise.all([
      sdk.verifyWebhookSignature('${body}', signature, 'whsec_test'),
      sdk.verifyWebhookSignature('${body}', 'sha256=00', 'whsec_test'),
    ]).then((r) => console.log(JSON.stringify([typeof client.paymentRequests.create, ...r])));`;
  writeFileSync(join(app, 'check.cjs'), `const sdk = require('@khoums/sdk');\n${check}`);
  writeFileSync(
    join(app, 'check.mjs'),
    `import * as sdk from '@khoums/sdk';\nimport { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${check}`,
  );
  for (const file of ['check.cjs', 'check.mjs']) {
    const out = execFileSync(process.execPath, [file], { cwd: app }).toString();
    expect({ file, result: JSON.parse(out) }).toEqual({ file, result: ['function', true, false] });
  }
});
