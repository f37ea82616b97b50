import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/*
 * `npm run cli` (scripts/cli.mjs) builds dist/ only when a source changed since the last build, on
 * a project made for the purpose (the script, a tiny src/ whose CLI prints its arguments, the
 * repository's TypeScript).
 */
const ROOT = resolve(__dirname, '../..');
// Two builds of a tiny project, each a tsc start on a machine the other suites load.
jest.setTimeout(180_000);
let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'khoums-cli-'));
  mkdirSync(join(project, 'scripts'));
  copyFileSync(join(ROOT, 'scripts/cli.mjs'), join(project, 'scripts/cli.mjs'));
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'commonjs',
        target: 'es2022',
        outDir: 'dist',
        rootDir: '.',
        types: ['node'],
      },
      include: ['src'],
    }),
  );
  writeFileSync(join(project, 'tsconfig.build.json'), JSON.stringify({ extends: './tsconfig.json' }));
  writeFileSync(join(project, 'package.json'), '{}');
  mkdirSync(join(project, 'src/cli'), { recursive: true });
  writeFileSync(join(project, 'src/greeting.ts'), "export const greeting = 'hello';\n");
  writeFileSync(
    join(project, 'src/cli/main.ts'),
    "import { greeting } from '../greeting';\ndeclare const process: any;\nprocess.stdout.write(`${greeting} ${process.argv.slice(2).join(' ')}\\n`);\nprocess.exitCode = 3;\n",
  );
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

const cli = (...args: string[]) => {
  const run = spawnSync(process.execPath, [join(project, 'scripts/cli.mjs'), ...args], {
    cwd: project,
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout, built: run.stderr.includes('Building dist/') };
};

it('builds dist/ on the first run and after a source changes, never when dist/ is current', () => {
  expect(cli('operator:create')).toEqual({ status: 3, stdout: 'hello operator:create\n', built: true });
  expect(cli('org:verify', 'x')).toEqual({ status: 3, stdout: 'hello org:verify x\n', built: false });
  expect(cli()).toMatchObject({ built: false });

  // A source saved after the build: built again, and the change is what runs.
  writeFileSync(join(project, 'src/greeting.ts'), "export const greeting = 'salam';\n");
  expect(cli('again')).toEqual({ status: 3, stdout: 'salam again\n', built: true });
  expect(cli('again')).toMatchObject({ built: false });
});
