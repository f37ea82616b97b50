import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileViews, Views } from './views';

describe('views', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'khoums-views-'));
    mkdirSync(join(dir, 'partials'));
    mkdirSync(join(dir, 'pages'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('compiles every file: partials by name, templates by path', () => {
    writeFileSync(join(dir, 'partials', 'amount.hbs'), '{{amount}} MRU');
    writeFileSync(join(dir, 'pages', 'pay.hbs'), 'Pay {{> amount}}');
    const templates = compileViews(dir);
    expect([...templates.keys()]).toEqual(['pages/pay']);
    expect(templates.get('pages/pay')!({ amount: 500 })).toBe('Pay 500 MRU');
  });

  it('fails on a view that does not compile, naming it', () => {
    writeFileSync(join(dir, 'pages', 'broken.hbs'), 'Pay {{#if amount}}');
    expect(() => compileViews(dir)).toThrow('views/pages/broken.hbs does not compile');
  });

  it("compiles the project's views once per process: every application shares them", () => {
    const [a, b] = [new Views(), new Views()];
    expect(Reflect.get(a, 'templates')).toBe(Reflect.get(b, 'templates'));
    expect(a.render('layouts/checkout', { body: '<p>x</p>' }, null)).toContain('<p>x</p>');
  });
});
