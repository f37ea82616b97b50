import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { expectedShape } from './fields';
import { buildValidationBody, notAnObjectBody, ValidationFailed, ValidationTarget } from './validation-body';

const TARGETS: Partial<Record<ArgumentMetadata['type'], ValidationTarget>> = {
  body: 'body',
  query: 'query',
  param: 'params',
};

/**
 * Validates every @Body(), @Query() and @Param() whose type is a DTO class, and answers 422 with
 * the 422 validation body. Unknown properties are dropped: the API ignores them.
 * Values are never coerced, except query integers which DTOs convert explicitly.
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
    if (errors.length > 0) throw new ValidationFailed(buildValidationBody(on, errors, shape, input));
    return instance;
  }
}
