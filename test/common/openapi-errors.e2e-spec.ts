import { Messages } from '../../src/common/errors/messages';
import { startTestApp, TestApp } from '../helpers/app';
import { Answer, OpenApiCheck } from '../helpers/openapi-check';

/**
 * The OpenAPI document declares every error an operation can answer (docs/architecture.md
 * "Errors in the OpenAPI document"), and the suites' check of every answer against it holds.
 */

interface Response {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<
    string,
    { schema: { enum?: string[]; anyOf?: Array<{ enum?: string[] }>; required?: string[] } }
  >;
}
interface Operation {
  parameters?: Array<{ in: string }>;
  requestBody?: unknown;
  responses: Record<string, Response>;
}
type Doc = { paths: Record<string, Record<string, Operation>> };

let t: TestApp;
let doc: Doc;
const operations: Array<[string, Operation]> = [];

beforeAll(async () => {
  t = await startTestApp();
  doc = (await t.http.get('/api/docs-json').expect(200)).body;
  for (const [path, item] of Object.entries(doc.paths))
    if (path.startsWith('/api/v1/'))
      for (const [method, op] of Object.entries(item))
        operations.push([`${method.toUpperCase()} ${path}`, op]);
});
afterAll(() => t?.close());

/** The fixed messages a response declares for its text/plain body. */
function messages(res: Response | undefined): string[] {
  const schema = res?.content?.['text/plain']?.schema;
  return [...(schema?.enum ?? []), ...(schema?.anyOf ?? []).flatMap((s) => s.enum ?? [])];
}

/** Each operation (`GET /api/v1/…`) for which `problem` says something. */
function everyOperation(problem: (op: Operation, route: string) => string | undefined): string[] {
  return operations.flatMap(([route, op]) => {
    const found = problem(op, route);
    return found ? [`${route}: ${found}`] : [];
  });
}

describe('every operation of the API', () => {
  it('answers 503 Service unavailable with Retry-After, 429 with Retry-After, 404 Not found and 500', () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(
      everyOperation((op) => {
        const r = op.responses;
        if (!messages(r[503]).includes(Messages.serviceUnavailable) || !r[503].headers?.['Retry-After'])
          return '503';
        if (!messages(r[429]).includes(Messages.tooManyRequests) || !r[429].headers?.['Retry-After'])
          return '429';
        if (!messages(r[404]).includes(Messages.notFound)) return '404';
        if (!messages(r[500]).includes(Messages.internal)) return '500';
      }),
    ).toEqual([]);
  });

  it('answers 401 Invalid API key when it takes a key, and no 401 when it does not', () => {
    const keyless = new Set([
      'GET /api/v1/checkout-session/public/{id}',
      'GET /api/v1/checkout-session/public/{id}/payment-status',
      'POST /api/v1/checkout-session/public/{id}/pay',
      'POST /api/v1/checkout-session/public/{id}/switch-method',
      'POST /api/v1/checkout-session/public/{id}/simulate-transfer',
    ]);
    expect(
      everyOperation((op, route) => {
        const refused = messages(op.responses[401]);
        if (keyless.has(route)) return op.responses[401] ? 'a 401 on a keyless route' : undefined;
        if (!refused.includes(Messages.invalidApiKey) || !refused.includes(Messages.apiKeyRequired))
          return 'no 401';
      }),
    ).toEqual([]);
    // Besides the key's 403s (its kind, and Khoums-Account on every route that takes a key), the
    // routes that ask a customer for money answer the Production gate's.
    expect(messages(doc.paths['/api/v1/payment-request']?.post.responses[403]).sort()).toEqual(
      [Messages.unauthorizedAccess, Messages.organizationNotVerified, Messages.accountNotConnected].sort(),
    );
    expect(messages(doc.paths['/api/v1/checkout-session']?.post.responses[403]).sort()).toEqual(
      [
        Messages.checkoutNeedsSecretKey,
        Messages.organizationNotVerified,
        Messages.accountNotConnected,
      ].sort(),
    );
    // Pay takes either key: its 403s are the gate's and the connected account's.
    expect(messages(doc.paths['/api/v1/payment']?.post.responses[403]).sort()).toEqual(
      [Messages.organizationNotVerified, Messages.accountNotConnected].sort(),
    );
  });

  it('answers the 400 Malformed JSON body, 413 and 415 wherever it reads a body (every method but GET)', () => {
    expect(
      everyOperation((op, route) => {
        if (route.startsWith('GET ')) return op.responses[415] ? 'a 415 on a GET' : undefined;
        if (!messages(op.responses[400]).includes(Messages.malformedJson)) return 'no Malformed JSON body';
        if (!messages(op.responses[413]).includes(Messages.payloadTooLarge)) return 'no 413';
        if (!messages(op.responses[415]).includes(Messages.unsupportedMediaType)) return 'no 415';
      }),
    ).toEqual([]);
  });

  it('answers the 422 validation body, as text/plain, wherever it takes input', () => {
    expect(
      everyOperation((op) => {
        const input = !!op.requestBody || (op.parameters ?? []).some((p) => p.in !== 'header');
        const body = op.responses[422]?.content?.['text/plain']?.schema;
        if (input && !body?.required?.includes('errors')) return 'no 422 body';
      }),
    ).toEqual([]);
  });

  it("lists a route's own errors with their exact messages", () => {
    const pay = doc.paths['/api/v1/payment'].post.responses;
    expect(messages(pay[502])).toEqual([Messages.bankFailure]);
    expect(messages(pay[409])).toEqual(
      expect.arrayContaining([
        Messages.paymentInProgress,
        Messages.paymentRequestAlreadyPaid,
        Messages.idempotencyKeyInProgress,
      ]),
    );
    expect(messages(doc.paths['/api/v1/payment/{id}'].get.responses[404])).toEqual(
      expect.arrayContaining([Messages.paymentNotFound, Messages.notFound]),
    );
  });
});

describe("the suites' check of every answer", () => {
  let check: OpenApiCheck;
  beforeAll(() => {
    check = new OpenApiCheck(doc);
  });
  const answer = (a: Partial<Answer>): Answer => ({
    method: 'GET',
    route: '/api/v1/payment/:id',
    url: '/api/v1/payment/x',
    status: 404,
    contentType: 'text/plain; charset=utf-8',
    body: Messages.paymentNotFound,
    ...a,
  });

  it('lets a declared answer through', () => {
    expect(check.violation(answer({}))).toBeUndefined();
  });

  it('flags a status, a content type or a message the document does not declare for the operation', () => {
    expect(check.violation(answer({ status: 418 }))).toMatch(/status its operation does not declare/);
    expect(check.violation(answer({ contentType: 'application/json' }))).toMatch(/content type not declared/);
    expect(check.violation(answer({ body: Messages.customerNotFound }))).toMatch(/schema refuses/);
  });

  it('flags a 200 whose JSON is not its schema (a required field missing, a wrong type)', () => {
    const ok = (body: unknown) =>
      answer({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
    expect(check.violation(ok({}))).toMatch(/schema refuses/);
    expect(check.violation(ok({ data: { id: 'x' } }))).toMatch(/schema refuses/);
    expect(
      check.violation(answer({ status: 200, contentType: 'application/json', body: 'not json' })),
    ).toMatch(/not JSON/);
  });

  it('leaves alone what is not an operation of the document (pages, unknown paths)', () => {
    expect(check.violation(answer({ route: '/checkout/:id', status: 418 }))).toBeUndefined();
    expect(check.violation(answer({ route: undefined, status: 404 }))).toBeUndefined();
  });
});
