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
 * Every Handlebars file of `dir`, in a Handlebars instance of its own: `partials/x.hbs` is the
 * partial `x`, any other file a template named by its path without `.hbs`. Every file is parsed
 * here, so that a broken view fails start-up with its name; a template is compiled from its parsed
 * form on its first render (compiling them all cost about three times parsing them, at each
 * process's start, and a process renders few of them: a test application most often none).
 */
export function compileViews(dir: string): ViewTemplates {
  const hb = Handlebars.create();
  const parsed = new Map<string, hbs.AST.Program>();
  for (const file of hbsFiles(dir)) {
    const name = relative(dir, file)
      .replace(/\\/g, '/')
      .replace(/\.hbs$/, '');
    let ast: hbs.AST.Program;
    try {
      ast = Handlebars.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new Error(`views/${name}.hbs does not compile: ${(err as Error).message}`);
    }
    if (name.startsWith('partials/')) hb.registerPartial(name.slice('partials/'.length), hb.compile(ast));
    else parsed.set(name, ast);
  }
  return new ViewTemplates(hb, parsed);
}

/** The templates of a views directory, each compiled once, on its first use (see `compileViews`). */
export class ViewTemplates {
  private readonly compiled = new Map<string, Handlebars.TemplateDelegate>();

  constructor(
    private readonly hb: typeof Handlebars,
    private readonly parsed: ReadonlyMap<string, hbs.AST.Program>,
  ) {}

  /** The names of the templates (the partials are not templates). */
  names(): string[] {
    return [...this.parsed.keys()];
  }

  /** The template `name`, undefined when there is no such file. */
  get(name: string): Handlebars.TemplateDelegate | undefined {
    let template = this.compiled.get(name);
    if (!template) {
      const ast = this.parsed.get(name);
      if (!ast) return undefined;
      this.compiled.set(name, (template = this.hb.compile(ast, { strict: false })));
    }
    return template;
  }
}

/**
 * The views of each directory, once per process: the files do not change while it runs, and the
 * templates are pure functions of their locals, so every application of the process (the test
 * suites start many) shares them, each template compiled once.
 */
const compiledViews = new Map<string, ViewTemplates>();

/**
 * Server-rendered pages (the hosted checkout, the dashboard, the console, the portal): every
 * Handlebars file of `views/` read and parsed at start-up, each template compiled on its first
 * render (`compileViews`). A view renders inside a layout of `views/layouts/` as `{{{body}}}`.
 * Rendering is then a function call, so a page costs no file system access.
 */
@Injectable()
export class Views {
  private readonly templates: ViewTemplates;

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
