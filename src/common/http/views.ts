import { Injectable } from '@nestjs/common';
import Handlebars from 'handlebars';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** `views/` at the project root, from the sources (ts-jest) or from the build (dist/src/...). */
export function viewsDir(): string {
  const candidates = [resolve(__dirname, '../../../views'), resolve(__dirname, '../../../../views')];
  const withLayouts = candidates.find((dir) => existsSync(join(dir, 'layouts')));
  if (!withLayouts) throw new Error(`views/ not found (looked in ${candidates.join(', ')})`);
  return withLayouts;
}

function hbsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? hbsFiles(join(dir, e.name)) : e.name.endsWith('.hbs') ? [join(dir, e.name)] : [],
  );
}

/**
 * Every Handlebars file of `dir` compiled, in a Handlebars instance of its own: `partials/x.hbs` is
 * the partial `x`, any other file a template named by its path without `.hbs`. Compiled eagerly
 * (Handlebars compiles lazily on first call) so that a broken view fails start-up.
 */
export function compileViews(dir: string): ReadonlyMap<string, Handlebars.TemplateDelegate> {
  const templates = new Map<string, Handlebars.TemplateDelegate>();
  const hb = Handlebars.create();
  for (const file of hbsFiles(dir)) {
    const name = relative(dir, file)
      .replace(/\\/g, '/')
      .replace(/\.hbs$/, '');
    const source = readFileSync(file, 'utf8');
    if (name.startsWith('partials/')) hb.registerPartial(name.slice('partials/'.length), source);
    else templates.set(name, hb.compile(source, { strict: false }));
  }
  for (const [name, template] of templates) {
    try {
      template({});
    } catch (err) {
      throw new Error(`views/${name}.hbs does not compile: ${(err as Error).message}`);
    }
  }
  return templates;
}

/**
 * The compiled views of each directory, once per process: the files do not change while it runs,
 * and the templates are pure functions of their locals, so every application of the process (the
 * test suites start many; compiling them cost 250-870 ms each time) shares them.
 */
const compiledViews = new Map<string, ReadonlyMap<string, Handlebars.TemplateDelegate>>();

/**
 * Server-rendered pages (the hosted checkout, the dashboard, the console, the portal): every
 * Handlebars file of `views/` compiled at start-up (`compileViews`). A view renders inside a
 * layout of `views/layouts/` as `{{{body}}}`. Rendering is then a function call, so a page costs
 * no file system access.
 */
@Injectable()
export class Views {
  private readonly templates: ReadonlyMap<string, Handlebars.TemplateDelegate>;

  constructor() {
    const dir = viewsDir();
    let templates = compiledViews.get(dir);
    if (!templates) compiledViews.set(dir, (templates = compileViews(dir)));
    this.templates = templates;
  }

  /** The HTML of `view` (a path under views/ without `.hbs`) inside `layout`. */
  render(view: string, locals: Record<string, unknown>, layout: string | null = 'layouts/main'): string {
    const body = this.template(view)(locals);
    return layout ? this.template(layout)({ ...locals, body }) : body;
  }

  private template(name: string): Handlebars.TemplateDelegate {
    const template = this.templates.get(name);
    if (!template) throw new Error(`no view views/${name}.hbs`);
    return template;
  }
}
