#!/usr/bin/env node
// Import cycles between FILES of src/ (scripts/check-layers.mjs checks the folders): a file that
// imports, through any chain, a file that imports it back. Type-only imports count too: a circle
// of types is a circle of meaning, and the day one of them becomes a value it is a load-order bug.
// Spec files are left out. Prints each cycle with the imports that close it.
// usage: node scripts/check-cycles.mjs [SRC_DIR]   (default ./src; exit 1 on any cycle)
import fs from 'node:fs';
import path from 'node:path';

const src = path.resolve(process.argv[2] ?? 'src');
const files = [];
(function walk(d) {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (/\.ts$/.test(e.name) && !/\.spec\.ts$|\.d\.ts$/.test(e.name)) files.push(p);
  }
})(src);

const IMPORT =
  /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|require\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The file an import names: `x` is x.ts, or x/index.ts. */
function resolveImport(from, spec) {
  const target = path.resolve(path.dirname(from), spec);
  for (const candidate of [target, `${target}.ts`, path.join(target, 'index.ts')])
    if (candidate.endsWith('.ts') && fs.existsSync(candidate) && fs.statSync(candidate).isFile())
      return candidate;
  return null;
}

const name = (f) => path.relative(src, f);
const edges = new Map(files.map((f) => [f, new Set()]));
for (const file of files) {
  for (const m of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const target = resolveImport(file, m[1] ?? m[2] ?? m[3]);
    if (target && edges.has(target) && target !== file) edges.get(file).add(target);
  }
}

// Strongly connected components (Tarjan, iterative: the tree is deep).
let index = 0;
const stack = [];
const onStack = new Set();
const indexOf = new Map();
const low = new Map();
const components = [];
for (const root of files) {
  if (indexOf.has(root)) continue;
  const work = [[root, [...edges.get(root)], 0]];
  indexOf.set(root, index);
  low.set(root, index++);
  stack.push(root);
  onStack.add(root);
  while (work.length) {
    const frame = work[work.length - 1];
    const [v, next] = frame;
    if (frame[2] < next.length) {
      const w = next[frame[2]++];
      if (!indexOf.has(w)) {
        indexOf.set(w, index);
        low.set(w, index++);
        stack.push(w);
        onStack.add(w);
        work.push([w, [...edges.get(w)], 0]);
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indexOf.get(w)));
      continue;
    }
    work.pop();
    if (work.length) {
      const parent = work[work.length - 1][0];
      low.set(parent, Math.min(low.get(parent), low.get(v)));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component);
    }
  }
}

for (const component of components) {
  const members = new Set(component);
  process.stderr.write(`import cycle among files: ${component.map(name).sort().join(', ')}\n`);
  for (const a of [...component].sort())
    for (const b of edges.get(a))
      if (members.has(b)) process.stderr.write(`  ${name(a)} imports ${name(b)}\n`);
}
if (components.length) process.exit(1);
