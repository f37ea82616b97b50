#!/usr/bin/env node
// One owner per table (docs/architecture.md, "Table owners"): every table belongs to one module, and
// only that module's SQL names it, to write it (INSERT INTO, UPDATE, DELETE FROM, TRUNCATE) or to
// read it (FROM, JOIN, USING, REFERENCES). Other modules ask the owner's repository or compose the
// fragments it exports (as settlement composes the outbox's insertEvent).
// The owners are read from the table of docs/architecture.md, the only list (two columns: a list
// of other readers is refused). This scans the string literals and template texts of every .ts file
// of src/ (migrations aside: they write the whole schema) and fails on a table named outside its
// owner's folder, and on a table of the migrations missing from the list.
// usage: node scripts/check-table-owners.mjs [SRC_DIR] [OWNERS_DOC]
import fs from 'node:fs';
import path from 'node:path';

const src = path.resolve(process.argv[2] ?? 'src');
const doc = path.resolve(process.argv[3] ?? 'docs/architecture.md');

/**
 * The rows `| \`table\` | \`owner\` |` of the doc's "### Table owners" section: table -> { owner,
 * extra }, `extra` being any text of further cells (a list of other readers, which is refused).
 */
function readOwners(text) {
  const start = text.indexOf('### Table owners');
  if (start < 0) return null;
  const section = text.slice(start + 1).split(/\n#{1,3} /)[0];
  const owners = new Map();
  for (const m of section.matchAll(/^\|\s*`([a-z_][a-z0-9_]*)`\s*\|\s*`([a-z-]+)\/?`\s*\|([^\n]*)$/gm))
    owners.set(m[1], { owner: m[2], extra: m[3].replace(/[|\s]/g, '') });
  return owners;
}

/** The texts of the string literals and template parts of a TypeScript file, with their lines. */
function stringsOf(code) {
  const out = [];
  let i = 0;
  let line = 1;
  const braces = []; // one entry per open `${`: the depth of `{` inside it
  const step = () => {
    if (code[i] === '\n') line++;
    i++;
  };
  // Reads a literal from its opening quote, or (resume) a template's text after a `${...}`.
  const readString = (quote, resume = false) => {
    let text = '';
    const at = line;
    if (!resume) step();
    while (i < code.length && code[i] !== quote) {
      if (code[i] === '\\') step();
      if (quote === '`' && code[i] === '$' && code[i + 1] === '{') {
        out.push({ text, line: at });
        step();
        step();
        braces.push(0);
        return;
      }
      text += code[i];
      step();
    }
    out.push({ text, line: at });
    step();
  };
  while (i < code.length) {
    const c = code[i];
    if (c === '/' && code[i + 1] === '/') while (i < code.length && code[i] !== '\n') step();
    else if (c === '/' && code[i + 1] === '*') {
      while (i < code.length && !(code[i] === '*' && code[i + 1] === '/')) step();
      step();
      step();
    } else if (c === "'" || c === '"' || c === '`') readString(c);
    else if (c === '{' && braces.length > 0) {
      braces[braces.length - 1]++;
      step();
    } else if (c === '}' && braces.length > 0) {
      if (braces[braces.length - 1] === 0) {
        braces.pop();
        step();
        readString('`', true);
      } else {
        braces[braces.length - 1]--;
        step();
      }
    } else step();
  }
  return out;
}

const TABLE =
  /\b(insert\s+into|update|delete\s+from|truncate(?:\s+table)?|from|join|using|references)\s+(?:only\s+)?"?([a-z_][a-z0-9_]*)\b/gi;
const WRITES = /^(insert|update|delete|truncate)/i;

function check(srcDir, owners) {
  const problems = [];
  const files = [];
  (function walk(d) {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (path.relative(srcDir, p) !== path.join('database', 'migrations')) walk(p);
      } else if (/\.ts$/.test(e.name) && !/\.spec\.ts$|\.d\.ts$/.test(e.name)) files.push(p);
    }
  })(srcDir);
  for (const file of files) {
    const rel = path.relative(srcDir, file);
    const module = rel.split(path.sep).length > 1 ? rel.split(path.sep)[0] : null;
    for (const { text, line } of stringsOf(fs.readFileSync(file, 'utf8'))) {
      for (const m of text.matchAll(TABLE)) {
        const table = m[2].toLowerCase();
        const entry = owners.get(table);
        if (entry === undefined || entry.owner === module) continue;
        const at = `src/${rel}:${line + (text.slice(0, m.index).match(/\n/g)?.length ?? 0)}`;
        const verb = m[1].toUpperCase().replace(/\s+/g, ' ');
        if (WRITES.test(m[1]))
          problems.push(
            `${at}: ${verb} ${table}: only ${entry.owner} writes it; use a fragment its repository exports`,
          );
        else
          problems.push(
            `${at}: ${verb} ${table} (owned by ${entry.owner}): ask ${entry.owner}'s repository or compose its fragment`,
          );
      }
    }
  }
  const migrations = path.join(srcDir, 'database', 'migrations');
  if (fs.existsSync(migrations))
    for (const f of fs.readdirSync(migrations))
      for (const m of fs
        .readFileSync(path.join(migrations, f), 'utf8')
        .matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"?([a-z_][a-z0-9_]*)/gi))
        if (!owners.has(m[1].toLowerCase()))
          problems.push(`table ${m[1]} (src/database/migrations/${f}) has no owner in the list`);
  for (const [table, { owner, extra }] of owners) {
    if (!fs.existsSync(path.join(srcDir, owner)))
      problems.push(`the owner of ${table}, ${owner}, is not a folder of src/`);
    if (extra !== '')
      problems.push(
        `the line of ${table} names other readers (${extra}): only its owner, ${owner}, reads it`,
      );
  }
  return problems;
}

{
  const owners = readOwners(fs.readFileSync(doc, 'utf8'));
  if (!owners || owners.size === 0) {
    console.error(`${path.relative(process.cwd(), doc)} has no "### Table owners" table`);
    process.exit(1);
  }
  const problems = check(src, owners);
  if (problems.length > 0) {
    console.error(
      `SQL names tables of other modules (docs/architecture.md, "Table owners"):\n- ${[...new Set(problems)].join('\n- ')}`,
    );
    process.exit(1);
  }
  console.log(`table owners: ${owners.size} tables, each written and read only by its owner`);
}
