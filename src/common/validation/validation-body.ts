import type { ValidationError } from 'class-validator';
import { Msg } from './fields';

export type ValidationTarget = 'body' | 'query' | 'params';

export interface ValidationIssue {
  property: string;
  message: string;
  summary: string;
  expected?: string;
  found: unknown;
}

/** The 422 validation body (docs/api.md "Errors"). */
export interface ValidationBody {
  type: 'validation';
  on: ValidationTarget;
  property: string;
  message: string;
  summary: string;
  expected: Record<string, unknown>;
  found: unknown;
  errors: ValidationIssue[];
}

const SECRET_FIELDS = new Set(['passCode', 'password', 'secret']);

/** What was received, with secrets (a pass code sent with a wrong type, say) never echoed back. */
export function redact(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELDS.has(k) ? '[redacted]' : v;
  return out;
}

const pointer = (path: string[]) =>
  '/' + path.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function flatten(
  errors: ValidationError[],
  shape: Record<string, string>,
  parent: string[] = [],
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const e of errors) {
    const path = [...parent, e.property];
    if (e.constraints) {
      const missing = e.value === undefined && 'isDefined' in e.constraints;
      const message = missing ? Msg.required : Object.values(e.constraints)[0];
      const name = path.join('.');
      const expected = shape[e.property] ?? shape[`${e.property}?`];
      issues.push({
        property: pointer(path),
        message,
        summary: missing
          ? `Property '${name}' is missing`
          : `Property '${name}' should be ${expected ?? message.replace(/^Expected /, '')}`,
        expected,
        found: SECRET_FIELDS.has(e.property) ? '[redacted]' : e.value,
      });
    }
    if (e.children?.length) issues.push(...flatten(e.children, {}, path));
  }
  return issues;
}

/** A string (or object key) PostgreSQL cannot store (see `storable.ts`): its issue. */
export function unstorableIssue(path: string[], value: unknown): ValidationIssue {
  const name = path.join('.');
  return {
    property: pointer(path),
    message: Msg.storableText,
    summary: `Property '${name}' should be ${Msg.storableText.replace(/^Expected /, '')}`,
    found: SECRET_FIELDS.has(path[path.length - 1]) ? '[redacted]' : value,
  };
}

export function buildValidationBody(
  on: ValidationTarget,
  errors: ValidationError[],
  shape: Record<string, string>,
  found: unknown,
  more: ValidationIssue[] = [],
): ValidationBody {
  const listed = flatten(errors, shape);
  const reported = new Set(listed.map((i) => i.property));
  const issues = [...listed, ...more.filter((i) => !reported.has(i.property))];
  const first = issues[0];
  return {
    type: 'validation',
    on,
    property: first.property,
    message: first.message,
    summary: first.summary,
    expected: shape,
    found: redact(found),
    errors: issues,
  };
}

/** A body that is JSON but not an object (`[]`, `"x"`, `5`). */
export function notAnObjectBody(
  on: ValidationTarget,
  shape: Record<string, string>,
  found: unknown,
): ValidationBody {
  const issue = { property: '', message: 'Expected object', summary: `The ${on} should be an object`, found };
  return { type: 'validation', on, ...issue, expected: shape, errors: [issue] };
}

export class ValidationFailed extends Error {
  constructor(readonly body: ValidationBody) {
    super(body.summary);
    this.name = 'ValidationFailed';
  }
}
