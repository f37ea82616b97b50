import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileViews, Views, viewsDir } from './views';

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
    expect(templates.names()).toEqual(['pages/pay']);
    expect(templates.get('pages/missing')).toBeUndefined();
    expect(templates.get('pages/pay')!({ amount: 500 })).toBe('Pay 500 MRU');
  });

  it('fails on a view that does not compile, naming it', () => {
    writeFileSync(join(dir, 'pages', 'broken.hbs'), 'Pay {{#if amount}}');
    expect(() => compileViews(dir)).toThrow('views/pages/broken.hbs does not compile');
  });

  it('fails on a broken partial too, naming it', () => {
    writeFileSync(join(dir, 'partials', 'amount.hbs'), '{{#each amounts}}{{this}}');
    expect(() => compileViews(dir)).toThrow('views/partials/amount.hbs does not compile');
  });

  it('compiles a template once, on its first use', () => {
    writeFileSync(join(dir, 'pages', 'pay.hbs'), 'Pay {{amount}}');
    const templates = compileViews(dir);
    const first = templates.get('pages/pay')!;
    expect(templates.get('pages/pay')).toBe(first);
    expect(first({ amount: 1 })).toBe('Pay 1');
  });

  it("every one of the project's views compiles and renders", () => {
    const templates = compileViews(viewsDir());
    expect(templates.names().length).toBeGreaterThan(50);
    for (const name of templates.names()) expect(() => templates.get(name)!({})).not.toThrow();
  });

  it("compiles the project's views once per process: every application shares them", () => {
    const [a, b] = [new Views(), new Views()];
    expect(Reflect.get(a, 'templates')).toBe(Reflect.get(b, 'templates'));
    expect(a.render('layouts/checkout', { body: '<p>x</p>' }, null)).toContain('<p>x</p>');
  });
});
