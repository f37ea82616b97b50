#!/usr/bin/env node
// The module graph of src/ (docs/architecture.md): each top-level folder is a module, and a
// module may import only from its own layer or the layers below it. Fails on an import that
// points up, on a folder missing from LAYERS, on any cycle between folders, and on a controller
// that imports a repository.
// usage: node scripts/check-layers.mjs [SRC_DIR]
import fs from 'node:fs';
import path from 'node:path';

/** Lowest first. The files at the root of src/ (main.ts, app.ts, app.module.ts) are above all. */
export const LAYERS = [
  ['common', 'config'],
  ['database', 'jobs'],
  ['organizations'],
  ['auth'],
  ['webhooks', 'idempotency', 'going-live', 'platforms', 'test-clocks'],
  ['payment-requests'],
  ['payments'],
  ['transfers'],
  ['checkout'],
  ['prices', 'customers', 'payment-links', 'coupons'],
  ['products'],
  ['invoices'],
  ['subscriptions'],
  ['billing'],
  ['ledger'],
  ['payouts'],
  ['rate-limits'],
  ['transfer-gateway'],
  ['portal'],
  ['dashboard'],
  ['admin'],
  ['health', 'cli'],
];

const src = path.resolve(process.argv[2] ?? 'src');
const layerOf = new Map(LAYERS.flatMap((mods, i) => mods.map((m) => [m, i])));
const files = [];
(function walk(d) {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (/\.ts$/.test(e.name) && !/\.spec\.ts$|\.d\.ts$/.test(e.name)) files.push(p);
  }
})(src);

const moduleOf = (file) => {
  const parts = path.relative(src, file).split(path.sep);
  return parts.length > 1 ? parts[0] : null; // null: the root (app)
};

const problems = [];
const edges = new Map();
const IMPORT =
  /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|require\(\s*['"](\.[^'"]+)['"]\s*\)/g;
for (const file of files) {
  const from = moduleOf(file);
  if (from !== null && !layerOf.has(from))
    problems.push(`src/${from}/ is not in LAYERS (scripts/check-layers.mjs): give it a layer`);
  for (const m of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const target = path.resolve(path.dirname(file), m[1] ?? m[2] ?? m[3]);
    if (!target.startsWith(src + path.sep)) continue;
    const to = moduleOf(target.endsWith('.ts') ? target : `${target}.ts`);
    if (to === from) continue;
    const where = `${path.relative(src, file)} imports ${m[1] ?? m[2] ?? m[3]}`;
    if (to === null) {
      if (from !== 'cli') problems.push(`${where}: only main.ts and the CLI may import the application root`);
      continue;
    }
    if (from === null) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, where);
    if ((layerOf.get(to) ?? -1) > (layerOf.get(from) ?? Infinity)) {
      problems.push(
        `${where}: ${from} (layer ${layerOf.get(from)}) must not import ${to} (layer ${layerOf.get(to)})`,
      );
    }
  }
}

// Controllers read and write through services (docs/architecture.md "Data access: one rule"): a
// *.controller.ts file never imports a *.repository module. `import type` (a row's shape) is erased
// at compile time and can inject nothing, so it is allowed.
const REPOSITORY_IMPORT =
  /\bimport\s+(type\s+)?[^'";]*?\bfrom\s+['"]([^'"]+\.repository)['"]|\bimport\(\s*['"]([^'"]+\.repository)['"]\s*\)|\brequire\(\s*['"]([^'"]+\.repository)['"]\s*\)/g;
for (const file of files.filter((f) => f.endsWith('.controller.ts'))) {
  for (const m of fs.readFileSync(file, 'utf8').matchAll(REPOSITORY_IMPORT)) {
    if (m[1]) continue;
    problems.push(
      `${path.relative(src, file)} imports ${m[2] ?? m[3] ?? m[4]}: a controller never touches a repository; ` +
        "inject the owning module's service and give it the read it needs (`import type` of a row is allowed)",
    );
  }
}

// Cycles between folders of one layer (Tarjan's strongly connected components).
let index = 0;
const stack = [];
const onStack = new Set();
const idx = new Map();
const low = new Map();
function connect(v) {
  idx.set(v, index);
  low.set(v, index++);
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!idx.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const scc = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1) {
      const arrows = scc.flatMap((a) =>
        [...(edges.get(a) ?? [])]
          .filter(([b]) => scc.includes(b))
          .map(([b, why]) => `    ${a} -> ${b} (${why})`),
      );
      problems.push(`import cycle among ${scc.sort().join(', ')}:\n${arrows.join('\n')}`);
    }
  }
}
for (const v of edges.keys()) if (!idx.has(v)) connect(v);

if (problems.length > 0) {
  console.error(
    `The module graph of src/ breaks its layers (docs/architecture.md):\n- ${[...new Set(problems)].join('\n- ')}`,
  );
  process.exit(1);
}
console.log(`module graph: ${edges.size} modules, no upward import, no cycle`);
