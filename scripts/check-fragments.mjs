#!/usr/bin/env node
// The SQL one module lends another (docs/architecture.md, "Data"): a repository exports no SQL
// (its statements are its methods'), and a module takes another's SQL only from that module's
// `<module>.fragments.ts`, where each fragment is declared with what it gives. database/ (the sql
// tag itself) and webhooks/outbox.ts (the one way to record an event) are the house's plumbing.
// SQL here: an exported function whose return type is Sql, SqlValue, SqlRows or SqlCtes, or an
// exported constant written with raw(…) or sql`…` or typed as one of those.
// usage: node scripts/check-fragments.mjs [SRC_DIR]   (exit 1 on any breach)
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

const SQL_TYPE = String.raw`(?:Sql|SqlValue<[^{]*?>|SqlRows<[^{]*?>|SqlCtes<[^{]*?>)`;
const SQL_EXPORT = new RegExp(
  String.raw`^export (?:function (\w+)\((?:[^()]|\([^()]*\))*\):\s*${SQL_TYPE}\s*\{|const (\w+)(?::\s*${SQL_TYPE})?\s*=\s*(?:raw\(|sql\x60))`,
  'gm',
);
const IMPORT = /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"](\.[^'"]+)['"]/g;

const rel = (f) => path.relative(src, f).split(path.sep).join('/');
const moduleOf = (f) => {
  const parts = rel(f).split('/');
  return parts.length > 1 ? parts[0] : null;
};
const plumbing = (f) => moduleOf(f) === 'database' || rel(f) === 'webhooks/outbox.ts';

const sqlExports = new Map();
const problems = [];
for (const file of files) {
  const names = [...fs.readFileSync(file, 'utf8').matchAll(SQL_EXPORT)].map((m) => m[1] ?? m[2]);
  sqlExports.set(file, new Set(names));
  if (file.endsWith('.repository.ts') && names.length)
    problems.push(
      `${rel(file)} exports SQL (${names.join(', ')}): a repository's statements are its methods'; ` +
        `SQL another module splices goes in ${moduleOf(file)}/${moduleOf(file)}.fragments.ts`,
    );
}
for (const file of files) {
  for (const m of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
    let target = path.resolve(path.dirname(file), m[2]);
    if (!target.endsWith('.ts')) target += '.ts';
    const exported = sqlExports.get(target);
    if (!exported || moduleOf(target) === moduleOf(file) || plumbing(target)) continue;
    if (target.endsWith('.fragments.ts')) continue;
    const names = m[1]
      .split(',')
      .map(
        (n) =>
          n
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0],
      )
      .filter((n) => exported.has(n));
    if (names.length)
      problems.push(
        `${rel(file)} takes SQL (${names.join(', ')}) from ${rel(target)}: another module's SQL comes ` +
          `from its ${moduleOf(target)}.fragments.ts, declared with what it gives`,
      );
  }
}

if (problems.length) {
  console.error(`SQL lent between modules outside their fragments files:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
const declared = files.filter((f) => f.endsWith('.fragments.ts'));
console.log(`fragments: ${declared.length} fragments files, no SQL lent any other way`);
