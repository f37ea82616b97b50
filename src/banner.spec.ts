import { bannerLines, displayWidth, startUpBanner, wrapLine } from './banner';
import type { CreatedOrganization } from './organizations/organizations.service';

/** A demo organization shaped like the real one: 40-character keys, a 20-character password. */
const demo: CreatedOrganization = {
  organizationId: '0196f3a0-0000-7000-8000-000000000000',
  email: 'demo@khoums.local',
  password: 'p'.repeat(20),
  sandbox: {
    environmentId: '0196f3a0-0000-7000-8000-000000000001',
    secretKey: 'sk_test_' + 'S'.repeat(40),
    publishableKey: 'pk_test_' + 'P'.repeat(40),
  },
  production: {
    environmentId: '0196f3a0-0000-7000-8000-000000000002',
    secretKey: 'sk_live_' + 's'.repeat(40),
    publishableKey: 'pk_live_' + 'p'.repeat(40),
  },
};

const firstStart = (dataDir: string) =>
  startUpBanner({
    publicUrl: 'http://localhost:3000',
    database: `embedded PostgreSQL in ${dataDir}`,
    migrationsApplied: 27,
    demo: { created: demo, savedTo: `${dataDir}/demo-credentials.json` },
  });

describe('displayWidth', () => {
  it('counts columns, not UTF-16 units: wide characters two, combining marks none', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('│─┌')).toBe(3);
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('😀')).toBe(2);
  });
});

describe('the first start’s banner', () => {
  it.each([
    './.data',
    '/home/merchant/projects/khoums/.data',
    '/srv/' + 'very-long-directory/'.repeat(8) + '.data',
  ])('fits in 80 columns with DATA_DIR %s', (dataDir) => {
    const lines = firstStart(dataDir);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    // A box: every line as wide as the top rule.
    for (const line of lines) expect(displayWidth(line)).toBe(displayWidth(lines[0]));
  });

  it('keeps each key and the login whole on one line, so they copy in one go', () => {
    const lines = firstStart('./.data');
    expect(lines.find((l) => l.includes(demo.sandbox.secretKey))).toMatch(
      /Sandbox secret key: +sk_test_S{40} +│$/,
    );
    expect(lines.find((l) => l.includes(demo.sandbox.publishableKey))).toMatch(
      /Sandbox publishable key: +pk_test_/,
    );
    expect(lines.some((l) => l.includes(`${demo.email} / ${demo.password}`))).toBe(true);
    expect(lines.some((l) => l.includes('http://localhost:3000/dashboard'))).toBe(true);
  });

  it('pads lines holding wide characters to the same display width', () => {
    const lines = bannerLines([['Données: 日本語のパス'], ['plain']]);
    expect(new Set(lines.map(displayWidth)).size).toBe(1);
  });
});

describe('wrapLine', () => {
  it('wraps at spaces with the continuation indented, and cuts a word longer than the width', () => {
    expect(wrapLine('  one two three four', 12)).toEqual(['  one two', '    three', '    four']);
    expect(wrapLine('  ' + 'x'.repeat(15), 10)).toEqual(['  xxxxxxxx', '    xxxxxx', '    x']);
  });
});
