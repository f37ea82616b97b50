import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppConfig } from '../../src/config/config';
import { startTestApp, TestApp } from '../helpers/app';

/**
 * A merchant's clone has only the project: the README and docs/ must stand alone and describe
 * what exists, nothing more and nothing less.
 */
const ROOT = resolve(__dirname, '../..');
const DOCS = [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(ROOT, 'docs', f)),
];
const read = (file: string) => readFileSync(file, 'utf8');

let t: TestApp;
let openapi: { info: { description: string }; paths: Record<string, Record<string, unknown>> };
beforeAll(async () => {
  t = await startTestApp();
  openapi = (await t.http.get('/api/docs-json')).body;
});
afterAll(() => t.close());

it('never points outside the project', () => {
  for (const file of DOCS)
    expect({ file, links: read(file).match(/\.\.\/shared|SPEC\.md|CONTRACT\.md/g) }).toEqual({
      file,
      links: null,
    });
});

it("describes every folder of src/ in the README's Layout", () => {
  const readme = read(join(ROOT, 'README.md'));
  const start = readme.indexOf('## Layout');
  const next = readme.indexOf('\n## ', start + 1);
  const layout = readme.slice(start, next < 0 ? undefined : next);
  const described = new Set([...layout.matchAll(/^- `src\/([\w-]+)\/`: \S/gm)].map((m) => m[1]));
  const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  expect(folders.filter((f) => !described.has(f)).sort()).toEqual([]);
  expect([...described].filter((f) => !folders.includes(f)).sort()).toEqual([]);
});

/** The files of `dir` (recursively), but for installed packages and build output. */
function filesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (['node_modules', 'dist', 'artifacts'].includes(e.name) || e.name.startsWith('.')) return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? filesOf(path) : [path];
  });
}

it('never cites a document a merchant does not have, in any file of the project', () => {
  // Built from parts so that this file does not match itself.
  const outside = new RegExp(['SPEC', 'CONTRACT'].map((name) => `${name}\\.md`).join('|'));
  const citing = ['src', 'test', 'sdk', 'scripts', 'bench', 'views', 'docs']
    .flatMap((dir) => filesOf(join(ROOT, dir)))
    .filter((file) => outside.test(read(file)))
    .map((file) => file.slice(ROOT.length + 1));
  expect(citing).toEqual([]);
});

/**
 * The prose paragraphs of a document, each with whether a code block stands just before or after
 * it (a sentence may go on across a command it shows).
 */
function paragraphs(text: string): Array<{ text: string; codeBefore: boolean; codeAfter: boolean }> {
  const blocks = text
    // A fence may be indented, as a code block inside a list item is.
    .replace(/^[ \t]*```[\s\S]*?^[ \t]*```/gm, '\n\n```\n\n')
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter((b) => b !== '');
  const prose = (b: string) => b !== '```' && !/^(#|[-*+] |\||>|\d+\. |<|!\[|\[[^\]]*\]:)/.test(b);
  return blocks.flatMap((b, i) =>
    prose(b) ? [{ text: b, codeBefore: blocks[i - 1] === '```', codeAfter: blocks[i + 1] === '```' }] : [],
  );
}

it('has no section spliced into another: every paragraph begins and ends a sentence, and a heading starts a line of its own', () => {
  const broken: string[] = [];
  for (const file of DOCS) {
    for (const p of paragraphs(read(file))) {
      const where = `${file.slice(ROOT.length + 1)}: ${p.text.slice(0, 60)}`;
      if (/^[a-z]/.test(p.text) && !p.codeBefore) broken.push(`begins mid-sentence: ${where}`);
      if (!/[.:?!)][`*_"')]*$/.test(p.text) && !p.codeAfter) broken.push(`ends mid-sentence: ${where}`);
      if (/\n#{1,6} /.test(p.text)) broken.push(`a heading inside a paragraph: ${where}`);
      // A line of another section pasted after a sentence's end: "… the whole argument.\norganizations' …"
      for (const [line] of p.text.matchAll(/[^\s]+[.!?]\n[a-z][^\s]*/g))
        broken.push(`a line from elsewhere: ${where} (${line})`);
    }
  }
  expect(broken).toEqual([]);
});

it('names only files that exist', () => {
  const missing: string[] = [];
  for (const file of DOCS) {
    const text = read(file);
    const paths = [
      ...[...text.matchAll(/`((?:src|docs|test|bench|scripts|sdk|views)\/[\w./-]+)`/g)].map((m) => m[1]),
      ...[...text.matchAll(/\]\(((?!https?:)[\w./-]+)\)/g)].map((m) => m[1]),
    ];
    for (const p of paths) {
      const clean = p.replace(/[.,:]$/, '');
      if (!existsSync(join(ROOT, clean)) && !existsSync(join(ROOT, 'docs', clean)))
        missing.push(`${file}: ${clean}`);
    }
  }
  expect(missing).toEqual([]);
});

it('lists every setting, and only real ones, in the README configuration table', () => {
  const readme = read(join(ROOT, 'README.md'));
  const table = readme.slice(readme.indexOf('### Configuration'));
  const documented = new Set([...table.matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((m) => m[1]));
  // Rows naming several settings: `BANK_X_URL`, ... (+ `_API_KEY`).
  for (const m of table.matchAll(/`(BANK_[A-Z]+)_URL`/g))
    documented.add(`${m[1]}_URL`).add(`${m[1]}_API_KEY`);
  const source = read(join(ROOT, 'src/config/config.ts'));
  const settings = new Set([
    ...Object.keys(new AppConfig()),
    ...[...source.matchAll(/^\s+([A-Z][A-Z0-9_]+)\?:/gm)].map((m) => m[1]),
  ]);
  expect([...settings].filter((s) => !documented.has(s)).sort()).toEqual([]);
  expect([...documented].filter((s) => !settings.has(s)).sort()).toEqual([]);
});

it('documents every route of the OpenAPI document in docs/api.md, and no route that does not exist', () => {
  const guide = read(join(ROOT, 'docs/api.md'));
  const norm = (path: string) => path.replace(/\{(\w+)\}/g, ':$1').replace(/^\/api\/v1/, '');
  const served = Object.entries(openapi.paths)
    .filter(([path]) => path.startsWith('/api/v1/'))
    .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${norm(path)}`));
  const undocumented = served.filter((route) => {
    const [method, path] = route.split(' ');
    return !new RegExp(`${method} \`?${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\`?\\s,]`).test(guide);
  });
  expect(undocumented).toEqual([]);
  const paths = new Set(served.map((r) => r.split(' ')[1]));
  const claimed = [...guide.matchAll(/`(?:GET|POST|PATCH|DELETE) (\/[^`?\s]+)/g)].map((m) => m[1]);
  expect(claimed.filter((p) => !paths.has(p))).toEqual([]);
});

it('describes in the OpenAPI document only what the service offers', () => {
  const description = openapi.info.description.toLowerCase();
  const offers = (path: string) => Object.keys(openapi.paths).some((p) => p.startsWith(`/api/v1/${path}`));
  if (description.includes('billing') || description.includes('subscription'))
    expect(offers('subscriptions')).toBe(true);
  expect(description).toContain('payment');
});

describe('docs/operations.md', () => {
  const guide = () => read(join(ROOT, 'docs/operations.md'));
  /** Settings named by work merged alongside this guide (pooling, metrics): drop each once AppConfig reads it. */
  const ADDED_ALONGSIDE = ['DATABASE_DIRECT_URL', 'METRICS_TOKEN'];

  it('names only settings the service reads, in the text and in its commands', () => {
    const source = read(join(ROOT, 'src/config/config.ts'));
    const settings = new Set([
      ...Object.keys(new AppConfig()),
      ...[...source.matchAll(/^\s+([A-Z][A-Z0-9_]+)\?:/gm)].map((m) => m[1]),
      ...ADDED_ALONGSIDE,
    ]);
    const named = new Set([
      ...[...guide().matchAll(/`([A-Z][A-Z0-9]*_[A-Z0-9_]+|PORT)`/g)].map((m) => m[1]),
      ...[...guide().matchAll(/-e ([A-Z][A-Z0-9_]+)=/g)].map((m) => m[1]),
    ]);
    expect(named.size).toBeGreaterThan(10);
    expect([...named].filter((s) => !settings.has(s)).sort()).toEqual([]);
  });

  it('gives the operator command and the retention index as the code has them', () => {
    const cli = read(join(ROOT, 'src/cli/main.ts'));
    for (const m of guide().matchAll(/cli -- (org:create --name "<name>" --email <email>)/g))
      expect(cli).toContain(m[1]);
    const index =
      /CREATE INDEX CONCURRENTLY IF NOT EXISTS (events_created_idx ON events \(created_at\))/.exec(guide());
    expect(index).not.toBeNull();
    const migrations = readdirSync(join(ROOT, 'src/database/migrations'))
      .map((f) => read(join(ROOT, 'src/database/migrations', f)))
      .join('\n');
    expect(migrations).toContain(`CREATE INDEX IF NOT EXISTS ${index![1]}`);
  });
});
