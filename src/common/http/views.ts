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
 * Server-rendered pages (the hosted checkout, later the dashboard): every Handlebars file of
 * `views/` compiled once at start-up, in a Handlebars instance of its own. `views/partials/x.hbs`
 * is the partial `x`; a view renders inside `views/layouts/main.hbs` as `{{{body}}}`.
 * Rendering is then a function call, so a page costs no file system access.
 */
@Injectable()
export class Views {
  private readonly templates = new Map<string, Handlebars.TemplateDelegate>();

  constructor() {
    const dir = viewsDir();
    const hb = Handlebars.create();
    for (const file of hbsFiles(dir)) {
      const name = relative(dir, file)
        .replace(/\\/g, '/')
        .replace(/\.hbs$/, '');
      const source = readFileSync(file, 'utf8');
      if (name.startsWith('partials/')) hb.registerPartial(name.slice('partials/'.length), source);
      else this.templates.set(name, hb.compile(source, { strict: false }));
    }
    // Compile eagerly (Handlebars compiles lazily on first call) so a broken view fails start-up.
    for (const [name, template] of this.templates) {
      try {
        template({});
      } catch (err) {
        throw new Error(`views/${name}.hbs does not compile: ${(err as Error).message}`);
      }
    }
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
