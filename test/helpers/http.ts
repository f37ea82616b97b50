import type { Response } from 'supertest';

/** Asserts a plain-text error answer: status, exact message and content-type. */
export function expectText(res: Response, status: number, message: string): void {
  expect({ status: res.status, text: res.text }).toEqual({ status, text: message });
  expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
}

export interface ValidationBodyJson {
  type: string;
  on: string;
  property: string;
  message: string;
  summary: string;
  expected: Record<string, unknown>;
  found: unknown;
  errors: Array<{ property: string; message: string; summary: string; found: unknown }>;
}

/** Asserts a 422 and returns its validation body (JSON sent as text/plain). */
export function expect422(
  res: Response,
  on: 'body' | 'query' | 'params',
  property: string,
): ValidationBodyJson {
  expect({ status: res.status, type: res.headers['content-type'] }).toEqual({
    status: 422,
    type: 'text/plain; charset=utf-8',
  });
  const body = JSON.parse(res.text) as ValidationBodyJson;
  expect(body).toMatchObject({ type: 'validation', on, property });
  expect(typeof body.message).toBe('string');
  expect(typeof body.summary).toBe('string');
  expect(typeof body.expected).toBe('object');
  expect(body.errors.map((e) => e.property)).toContain(property);
  return body;
}
