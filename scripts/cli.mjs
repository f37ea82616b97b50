#!/usr/bin/env node
// `npm run cli -- <command>`: builds dist/ only when a source is newer than the last build (a full
// `tsc` takes seconds even when incremental: the program is loaded and checked again), then runs
// the CLI with the arguments. The last build's start time is kept as dist/.build-stamp's mtime, so
// a file saved while a build runs is built next time.
// usage: node scripts/cli.mjs [CLI arguments]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const entry = path.join(root, 'dist', 'src', 'cli', 'main.js');

/** The newest modification time of the build's inputs (tsconfig.build.json: src, bench, ormconfig.ts). */
function newestInput() {
  let newest = 0;
  const see = (file) => {
    try {
      newest = Math.max(newest, fs.statSync(file).mtimeMs);
    } catch {
      // absent: nothing to build from
    }
  };
  const walk = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts')) see(p);
    }
    see(dir); // a file deleted or renamed changes its folder
  };
  walk(path.join(root, 'src'));
  walk(path.join(root, 'bench'));
  for (const file of ['ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json']) see(path.join(root, file));
  return newest;
}

function builtAt() {
  try {
    return fs.existsSync(entry) ? fs.statSync(stamp).mtimeMs : 0;
  } catch {
    return 0;
  }
}

if (newestInput() >= builtAt()) {
  process.stderr.write('Building dist/ (sources changed since the last build)...\n');
  const started = new Date();
  const tsc = createRequire(path.join(root, 'package.json')).resolve('typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
  fs.writeFileSync(stamp, '');
  fs.utimesSync(stamp, started, started);
}

const run = spawnSync(process.execPath, [entry, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
