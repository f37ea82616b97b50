import { ValidationPipe } from './validation-pipe';
import { ValidationFailed } from './validation-body';
import { ExternalIdField, IntegerField, Msg, StringField } from './fields';

class Dto {
  @ExternalIdField() transactionId!: string;
  @IntegerField() amount!: number;
  @StringField({ optional: true }) passCode?: string;
}

const pipe = new ValidationPipe();
const run = (value: unknown, type: 'body' | 'query' | 'param' = 'body') =>
  pipe.transform(value, { type, metatype: Dto, data: undefined });

function failure(value: unknown, type: 'body' | 'query' | 'param' = 'body') {
  try {
    run(value, type);
  } catch (e) {
    if (e instanceof ValidationFailed) return e.body;
    throw e;
  }
  throw new Error('expected a validation failure');
}

describe('ValidationPipe', () => {
  it('returns an instance with unknown properties dropped', () => {
    expect(run({ transactionId: 'a', amount: 1, extra: true })).toEqual(
      Object.assign(new Dto(), { transactionId: 'a', amount: 1 }),
    );
  });

  it('builds the 422 validation body: each issue with its JSON pointer and the expected shape', () => {
    const body = failure({ transactionId: 'a', amount: '10' });
    expect(body).toEqual({
      type: 'validation',
      on: 'body',
      property: '/amount',
      message: 'Expected integer',
      summary: "Property 'amount' should be integer",
      expected: {
        transactionId: 'string (1-128 printable characters)',
        amount: 'integer',
        'passCode?': 'string',
      },
      found: { transactionId: 'a', amount: '10' },
      errors: [
        {
          property: '/amount',
          message: 'Expected integer',
          summary: "Property 'amount' should be integer",
          expected: 'integer',
          found: '10',
        },
      ],
    });
  });

  it('names the part of the request that failed', () => {
    expect(failure({}, 'query').on).toBe('query');
    expect(failure({}, 'param').on).toBe('params');
  });

  it('never echoes a pass code back', () => {
    const body = failure({ transactionId: 'a', amount: 1, passCode: 1234 });
    expect(JSON.stringify(body)).not.toContain('1234');
    expect(body.found).toEqual({ transactionId: 'a', amount: 1, passCode: '[redacted]' });
  });

  it('leaves primitives and untyped parameters alone', () => {
    expect(pipe.transform('x', { type: 'param', metatype: String, data: 'id' })).toBe('x');
    expect(pipe.transform({ a: 1 }, { type: 'custom', metatype: Dto })).toEqual({ a: 1 });
  });

  it('fails a kept string PostgreSQL cannot store (NUL, lone surrogate), with the other failures', () => {
    const nul = failure({ transactionId: 'a', amount: 1, passCode: '1\u00002' });
    expect(nul).toMatchObject({ property: '/passCode', message: Msg.storableText });
    expect(nul.errors).toEqual([expect.objectContaining({ property: '/passCode', found: '[redacted]' })]);
    const both = failure({ transactionId: 'a\ud800', amount: 'x' });
    expect(both.errors.map((e) => [e.property, e.message])).toEqual([
      ['/amount', 'Expected integer'],
      ['/transactionId', Msg.storableText],
    ]);
  });

  it('reports a property once when its rule and its text both fail', () => {
    const body = failure({ transactionId: 'a\u0000', amount: 1 });
    expect(body.errors.map((e) => e.property)).toEqual(['/transactionId']);
  });

  it('ignores unknown properties, whatever they hold', () => {
    expect(run({ transactionId: 'a', amount: 1, extra: '\u0000' })).toEqual(
      Object.assign(new Dto(), { transactionId: 'a', amount: 1 }),
    );
  });
});
