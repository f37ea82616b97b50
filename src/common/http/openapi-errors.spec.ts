import 'reflect-metadata';
import { domainErrors, errorEntry } from '../errors/app-error';
import { ApiErrors, errorResponses } from './openapi-errors';

enum KioskError {
  Missing = 'kiosk_missing',
  Gone = 'kiosk_gone',
  Named = 'kiosk_named',
  Busy = 'kiosk_busy',
  Shut = 'kiosk_shut',
}
domainErrors<KioskError>({
  [KioskError.Missing]: [404, 'Kiosk not found'],
  [KioskError.Gone]: [404, 'Kiosk was closed'],
  [KioskError.Named]: [409, (name) => `A kiosk named "${name}" (sic) already exists`],
  [KioskError.Busy]: [429, 'Kiosk is busy'],
  [KioskError.Shut]: [409, 'Kiosk is shut'],
});

describe('error codes', () => {
  it('are found by code with their status and message', () => {
    expect(errorEntry(KioskError.Missing)).toEqual([404, 'Kiosk not found']);
  });

  it('refuse a code declared twice with another answer, and one never declared', () => {
    expect(() => domainErrors({ kiosk_missing: [400, 'Other'] })).toThrow(/declared twice/);
    expect(() => errorEntry('no_such_code')).toThrow(/not declared/);
    expect(() => ApiErrors('no_such_code')).toThrow(/not declared/);
  });
});

describe('the error answers of a route', () => {
  it('group the messages of one status as the enum of a text/plain string', () => {
    const responses = errorResponses([KioskError.Missing, KioskError.Gone, KioskError.Missing], false);
    expect(Object.keys(responses)).toEqual(['404']);
    expect(responses[404].content).toEqual({
      'text/plain': { schema: { type: 'string', enum: ['Kiosk not found', 'Kiosk was closed'] } },
    });
    expect(responses[404].description).toBe('`Kiosk not found`, `Kiosk was closed`');
  });

  it('give a message that names a value as a pattern that matches it, and only it', () => {
    const schema = errorResponses([KioskError.Named], false)[409].content!['text/plain'].schema as {
      pattern: string;
    };
    const pattern = new RegExp(schema.pattern);
    expect(pattern.test('A kiosk named "Souk 2" (sic) already exists')).toBe(true);
    expect(pattern.test('A kiosk named "Souk 2" (sic) already exists!')).toBe(false);
    expect(pattern.test('A kiosk named "Souk" sic already exists')).toBe(false);
  });

  it('mix fixed messages and patterns of one status with anyOf', () => {
    const schema = errorResponses([KioskError.Named, KioskError.Shut], false)[409].content!['text/plain']
      .schema;
    expect(schema).toEqual({
      type: 'string',
      anyOf: [
        { type: 'string', enum: ['Kiosk is shut'] },
        { type: 'string', pattern: expect.any(String) },
      ],
    });
  });

  it('tell when to try again on 429', () => {
    expect(errorResponses([KioskError.Busy], false)[429].headers).toHaveProperty('Retry-After');
    expect(errorResponses([KioskError.Missing], false)[404].headers).toBeUndefined();
  });

  it('include the 422 validation body, as text/plain, only for a route that validates input', () => {
    expect(errorResponses([KioskError.Missing], false)).not.toHaveProperty('422');
    const body = errorResponses([], true)[422].content!['text/plain'].schema as { required: string[] };
    expect(body.required).toEqual(
      expect.arrayContaining(['type', 'on', 'property', 'message', 'summary', 'errors']),
    );
  });
});
