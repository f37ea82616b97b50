// Builds the library: dist/index.mjs (ES module), dist/index.cjs (CommonJS), dist/types (declarations),
// and dist/khoums.min.js, the minified ES module a browser loads, whose gzipped size is reported.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });

const common = {
  entryPoints: [join(root, 'src/index.ts')],
  bundle: true,
  target: 'es2020',
  logLevel: 'warning',
};
await build({ ...common, format: 'esm', platform: 'neutral', outfile: join(dist, 'index.mjs') });
await build({ ...common, format: 'cjs', platform: 'node', outfile: join(dist, 'index.cjs') });
await build({
  ...common,
  format: 'esm',
  platform: 'browser',
  minify: true,
  outfile: join(dist, 'khoums.min.js'),
});
execFileSync(
  process.execPath,
  [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')],
  {
    stdio: 'inherit',
  },
);

const min = readFileSync(join(dist, 'khoums.min.js'));
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(
  `dist/khoums.min.js: ${kb(min.length)} minified, ${kb(gzipSync(min, { level: 9 }).length)} gzipped`,
);
