import type { NestExpressApplication } from '@nestjs/platform-express';
import hbs from 'hbs';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

/** `views/` at the project root, from the sources (ts-jest) or from the build (dist/src/...). */
export function viewsDir(): string {
  const candidates = [resolve(__dirname, '../../../views'), resolve(__dirname, '../../../../views')];
  const found = candidates.find((dir) => existsSync(join(dir, 'layouts')));
  if (!found) throw new Error(`views/ not found (looked in ${candidates.join(', ')})`);
  return found;
}

/**
 * Server-rendered pages (the hosted checkout, later the dashboard): Handlebars from `views/`, with
 * `views/layouts/main.hbs` as the layout and `views/partials/*.hbs` registered by file name.
 * Partials are read synchronously so the first request never renders without them.
 */
export function configureViews(app: NestExpressApplication): void {
  const dir = viewsDir();
  const partials = join(dir, 'partials');
  for (const file of readdirSync(partials).filter((f) => f.endsWith('.hbs'))) {
    hbs.registerPartial(basename(file, '.hbs'), readFileSync(join(partials, file), 'utf8'));
  }
  app.engine('hbs', hbs.__express);
  app.setBaseViewsDir(dir);
  app.setViewEngine('hbs');
  app.set('view options', { layout: 'layouts/main' });
  app.set('view cache', true);
}
