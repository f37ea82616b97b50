import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  Matches,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { isHttpUrl, parseDateTime } from './rules';

/**
 * Field decorators for DTOs. Each one is the single place that says, for one kind of field,
 * how it is validated (422 on a wrong type or shape), how it appears in the OpenAPI document,
 * and what the validation body's `expected` shape shows for it.
 */

const shapes = new Map<Function, Record<string, string>>();

/** The `expected` object of the validation body: property (with `?` when optional) -> type. */
export function expectedShape(target: Function): Record<string, string> {
  const own: Record<string, string> = {};
  for (let t: Function | null = target; t && t !== Object; t = Object.getPrototypeOf(t) as Function | null) {
    Object.assign(own, { ...(shapes.get(t) ?? {}), ...own });
  }
  return own;
}

function recordShape(type: string, optional: boolean): PropertyDecorator {
  return (target, property) => {
    const ctor = target.constructor;
    const shape = shapes.get(ctor) ?? {};
    shape[optional ? `${String(property)}?` : String(property)] = type;
    shapes.set(ctor, shape);
  };
}

export const Msg = {
  required: 'Required property',
  expected: (type: string) => `Expected ${type}`,
  storableText: 'Expected text without NUL characters or unpaired surrogates',
};

interface FieldOptions {
  optional?: boolean;
  description?: string;
  example?: unknown;
  /** `null` is accepted and kept as null (e.g. clearing an optional field). */
  nullable?: boolean;
}

function presence(o: FieldOptions): PropertyDecorator[] {
  if (o.nullable) return [ValidateIf((_, v) => v !== undefined && v !== null)];
  return o.optional ? [IsOptional()] : [IsDefined({ message: Msg.required })];
}

function doc(o: FieldOptions, extra: Record<string, unknown>): PropertyDecorator {
  const opts = { description: o.description, example: o.example, nullable: o.nullable, ...extra };
  return o.optional || o.nullable ? ApiPropertyOptional(opts) : ApiProperty(opts);
}

function field(type: string, o: FieldOptions, api: Record<string, unknown>, ...checks: PropertyDecorator[]) {
  return applyDecorators(
    recordShape(type, !!(o.optional || o.nullable)),
    doc(o, api),
    ...presence(o),
    ...checks,
  );
}

/** A JSON integer. Range rules (amount > 0, limits) are business rules checked by the service (400). */
export const IntegerField = (o: FieldOptions & { min?: number; max?: number } = {}) => {
  const ranged = o.min !== undefined && o.max !== undefined;
  const type = ranged ? `integer ${o.min}-${o.max}` : 'integer';
  return field(
    type,
    o,
    { type: 'integer', minimum: o.min, maximum: o.max },
    IsInt({ message: Msg.expected(type) }),
    ...(o.min !== undefined ? [Min(o.min, { message: Msg.expected(type) })] : []),
    ...(o.max !== undefined ? [Max(o.max, { message: Msg.expected(type) })] : []),
  );
};

export const StringField = (o: FieldOptions & { minLength?: number; maxLength?: number } = {}) => {
  const type = `string${o.maxLength ? ` (${o.minLength ?? 0}-${o.maxLength} characters)` : ''}`;
  return field(
    type,
    o,
    { type: 'string', minLength: o.minLength, maxLength: o.maxLength },
    IsString({ message: Msg.expected('string') }),
    ...(o.minLength ? [MinLength(o.minLength, { message: Msg.expected(type) })] : []),
    ...(o.maxLength ? [MaxLength(o.maxLength, { message: Msg.expected(type) })] : []),
  );
};

/** The longest of the merchant's own identifiers (transactionId, externalUserId, a receipt's reference). */
export const EXTERNAL_ID_MAX = 128;
/** One of the merchant's own identifiers: 1 to EXTERNAL_ID_MAX printable characters (the dashboard's forms check it too). */
export const EXTERNAL_ID = new RegExp(
  `^[^\\p{Cc}\\p{Cf}\\p{Co}\\p{Cn}\\p{Zl}\\p{Zp}]{1,${EXTERNAL_ID_MAX}}$`,
  'u',
);

/** The merchant's own identifiers (transactionId, externalUserId): 1 to 128 printable characters. */
export const ExternalIdField = (o: FieldOptions = {}) => {
  const type = `string (1-${EXTERNAL_ID_MAX} printable characters)`;
  return field(
    type,
    o,
    { type: 'string', minLength: 1, maxLength: EXTERNAL_ID_MAX },
    IsString({ message: Msg.expected('string') }),
    Matches(EXTERNAL_ID, { message: Msg.expected(type) }),
  );
};

/** A phone number arrives as a string; normalising and the Mauritanian rule are the service's (400). */
export const PhoneField = (o: FieldOptions = {}) =>
  field(
    'string (8-digit Mauritanian number)',
    o,
    { type: 'string', example: '22123456' },
    IsString({ message: Msg.expected('string') }),
  );

export const UuidField = (o: FieldOptions = {}) =>
  field(
    'string (uuid)',
    o,
    { type: 'string', format: 'uuid' },
    IsUUID('all', { message: Msg.expected('a UUID') }),
  );

export const UrlField = (o: FieldOptions = {}) =>
  field(
    'string (absolute http(s) URL)',
    o,
    { type: 'string', format: 'uri' },
    validateWith(isHttpUrl, 'an absolute http(s) URL'),
  );

function validateWith(
  fn: (value: unknown) => boolean,
  expected: string,
  name = 'isHttpUrl',
): PropertyDecorator {
  return ValidateBy({
    name,
    validator: { validate: (v) => fn(v), defaultMessage: () => Msg.expected(expected) },
  });
}

/** An ISO 8601 date-time (a time without an offset is UTC; a date alone is its midnight UTC). */
export const DateTimeField = (o: FieldOptions = {}) =>
  field(
    'string (ISO 8601 date-time)',
    o,
    { type: 'string', format: 'date-time' },
    validateWith((v) => parseDateTime(v) !== null, 'an ISO 8601 date-time', 'isDateTime'),
  );

/**
 * A field whose accepted forms a predicate decides (e.g. a boolean or one literal string): `type`
 * is what the 422 body and the OpenAPI description say is expected.
 */
export const PredicateField = (
  type: string,
  accepts: (value: unknown) => boolean,
  api: Record<string, unknown>,
  o: FieldOptions = {},
) => field(type, o, api, validateWith(accepts, type, 'isAccepted'));

export const BooleanField = (o: FieldOptions = {}) =>
  field('boolean', o, { type: 'boolean' }, IsBoolean({ message: Msg.expected('boolean') }));

export const EnumField = (values: readonly string[], o: FieldOptions = {}) =>
  field(
    `one of ${values.join(', ')}`,
    o,
    { enum: values },
    IsIn(values as string[], { message: Msg.expected(`one of ${values.join(', ')}`) }),
  );

export const EnumArrayField = (values: readonly string[], o: FieldOptions = {}) =>
  field(
    `array of (${values.join(', ')})`,
    o,
    { enum: values, isArray: true },
    IsArray({ message: Msg.expected('array') }),
    IsIn(values as string[], { each: true, message: Msg.expected(`array of (${values.join(', ')})`) }),
  );

/** Query integers arrive as text: decimal digits become numbers, anything else stays and fails IsInt. */
const queryInt = Transform(({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value,
);

export const QueryIntegerField = (min: number, max: number | undefined, o: FieldOptions = {}) => {
  const type = max === undefined ? `integer >= ${min}` : `integer ${min}-${max}`;
  return field(
    type,
    { ...o, optional: true },
    { type: 'integer', minimum: min, maximum: max },
    queryInt,
    IsInt({ message: Msg.expected(type) }),
    Min(min, { message: Msg.expected(type) }),
    ...(max === undefined ? [] : [Max(max, { message: Msg.expected(type) })]),
  );
};
