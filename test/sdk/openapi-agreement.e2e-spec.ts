import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as ts from 'typescript';
import { startTestApp, TestApp } from '../helpers/app';
import { Answer, answerProblems } from './helpers';
import { generateTypes, OpenApiDocument, routesOf, routesWithoutResponseSchema } from './openapi-types';

/**
 * The client library and the service agree on every route and field: the library's types are
 * generated from the running service's OpenAPI document (whose response schemas are the service's
 * record classes), its methods are typed by them, and every route of the document has a method.
 */

const SDK = resolve(__dirname, '../../sdk');
const GENERATED = join(SDK, 'src/api.generated.ts');
const PLANNED = join(SDK, 'src/planned.ts');

/** Routes of the document the library reaches another way (the alias of GET /configuration). */
const NOT_CALLED = new Set(['GET /payment-methods']);

let t: TestApp;
let doc: OpenApiDocument;

beforeAll(async () => {
  t = await startTestApp();
  doc = (await t.http.get('/api/docs-json').expect(200)).body;
});
afterAll(() => t.close());

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The route keys the library's methods call (`'GET /payment-request/{id}'` literals). */
function routesCalledBySdk(): Set<string> {
  const routes = new Set<string>();
  for (const file of sourceFiles(join(SDK, 'src'))) {
    if (file === GENERATED || file === PLANNED) continue;
    for (const m of readFileSync(file, 'utf8').matchAll(/'((?:GET|POST|PATCH|PUT|DELETE) \/[^']*)'/g))
      routes.add(m[1]);
  }
  return routes;
}

/** The routes the library declares by hand until the service has them (sdk/src/planned.ts). */
function plannedRoutes(): string[] {
  return [...readFileSync(PLANNED, 'utf8').matchAll(/^\s+'((?:GET|POST|PATCH|PUT|DELETE) \/[^']*)':/gm)].map(
    (m) => m[1],
  );
}

it('every route of /api/v1 declares its 200 answer in the OpenAPI document', () => {
  expect(routesWithoutResponseSchema(doc)).toEqual([]);
});

it("the library's generated types are exactly those of the running service's OpenAPI document", () => {
  const generated = generateTypes(doc);
  if (process.env.UPDATE_SDK_TYPES) writeFileSync(GENERATED, generated);
  // On a difference: the service changed (or the library's file was edited). Regenerate with
  // UPDATE_SDK_TYPES=1 npx jest test/sdk/openapi-agreement, then fix what the type check reports.
  expect(readFileSync(GENERATED, 'utf8')).toEqual(generated);
});

it('the library has a method for every route of the document, and calls no route the document lacks', () => {
  const documented = new Set(routesOf(doc).keys());
  const planned = plannedRoutes();
  const called = routesCalledBySdk();
  expect([...documented].filter((r) => !called.has(r) && !NOT_CALLED.has(r))).toEqual([]);
  expect([...called].filter((r) => !documented.has(r) && !planned.includes(r))).toEqual([]);
});

it('a route declared by hand in planned.ts is not yet in the document (once it is, its generated type replaces it)', () => {
  const documented = new Set(routesOf(doc).keys());
  expect(plannedRoutes().length).toBeGreaterThan(0);
  expect(plannedRoutes().filter((r) => documented.has(r))).toEqual([]);
});

it("the library's sources type-check against the generated types (strict)", () => {
  const config = ts.readConfigFile(join(SDK, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, SDK);
  const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true });
  const diagnostics = ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(diagnostics).toEqual([]);
});

it('the answer check of the SDK suites catches a field the document lacks, a missing one and a wrong type', () => {
  const answer = (body: unknown): Answer => ({
    method: 'GET',
    url: 'http://127.0.0.1/api/v1/payment-methods',
    status: 200,
    body,
  });
  const method = {
    id: 'x',
    type: 'sedad',
    name: 'Sedad',
    requiresPassCode: false,
    config: { code: 'sedad' },
  };
  expect(answerProblems(doc, [answer({ data: [method] })])).toEqual([]);
  expect(answerProblems(doc, [answer({ data: [{ ...method, extra: 1 }] })])).toEqual([
    'GET /payment-methods: $.data[0].extra is not in the document',
  ]);
  const nameless: Partial<typeof method> = { ...method, requiresPassCode: 'no' as never };
  delete nameless.name;
  expect(answerProblems(doc, [answer({ data: [nameless] })])).toEqual([
    'GET /payment-methods: $.data[0].name is missing',
    'GET /payment-methods: $.data[0].requiresPassCode is not a boolean',
  ]);
});
