import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { expectedShape } from './fields';
import { rememberValidationRules } from './remembered-rules';
import { unstorablePaths } from './storable';
import {
  buildValidationBody,
  notAnObjectBody,
  unstorableIssue,
  ValidationFailed,
  ValidationTarget,
} from './validation-body';

rememberValidationRules();

const TARGETS: Partial<Record<ArgumentMetadata['type'], ValidationTarget>> = {
  body: 'body',
  query: 'query',
  param: 'params',
};

/**
 * Validates every @Body(), @Query() and @Param() whose type is a DTO class, and answers 422 with
 * the validation body. Unknown properties are dropped (ignored). Values are never coerced, except
 * query integers which DTOs convert explicitly. A string the DTO keeps that PostgreSQL cannot store
 * (a NUL character, a lone surrogate) fails here too, for every route at once.
 */
@Injectable()
export class ValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const on = TARGETS[metadata.type];
    const metatype = metadata.metatype;
    if (
      !on ||
      !metatype ||
      metadata.data ||
      [String, Number, Boolean, Object, Array].includes(metatype as never)
    ) {
      return value;
    }
    const shape = expectedShape(metatype);
    const input = value ?? {};
    if (typeof input !== 'object' || Array.isArray(input)) {
      throw new ValidationFailed(notAnObjectBody(on, shape, input));
    }
    const instance: object = plainToInstance(metatype as new () => object, input);
    const errors = validateSync(instance, {
      whitelist: true,
      forbidUnknownValues: false,
      validationError: { target: false },
    });
    const unstorable = unstorablePaths(instance).map((path) =>
      unstorableIssue(path, valueAt(instance, path)),
    );
    if (errors.length > 0 || unstorable.length > 0)
      throw new ValidationFailed(buildValidationBody(on, errors, shape, input, unstorable));
    return instance;
  }
}

function valueAt(root: object, path: string[]): unknown {
  return path.reduce<unknown>((v, key) => (v as Record<string, unknown>)[key], root);
}
