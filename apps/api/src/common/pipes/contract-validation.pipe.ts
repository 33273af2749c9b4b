import { type ArgumentMetadata, Injectable, ValidationPipe } from '@nestjs/common';
import {
  CONTRACT_TRANSFORM_OPTIONS,
  CONTRACT_VALIDATION_OPTIONS,
  toFieldErrors,
  validateBody,
} from '@layout/contracts';
import { RequestValidationError, ResourceNotFoundError } from '../errors';

/**
 * The global ValidationPipe. Bodies and path parameters go through the shared DTO library's
 * `validateBody`, the very function a browser app calls, so client and server can never
 * disagree; it also screens the raw body (reserved keys such as `constructor`, nesting depth)
 * before class-transformer sees it. A path id of the wrong shape cannot name a resource: that is
 * a 404, never a 400.
 */
@Injectable()
export class ContractValidationPipe extends ValidationPipe {
  constructor() {
    super({
      ...CONTRACT_VALIDATION_OPTIONS,
      transform: true,
      transformOptions: CONTRACT_TRANSFORM_OPTIONS,
      exceptionFactory: (errors) => new RequestValidationError(toFieldErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype, type } = metadata;
    if (!metatype || !this.toValidate(metadata) || (type !== 'body' && type !== 'param')) {
      return super.transform(value, metadata);
    }
    // Fastify builds route params on a null prototype; the shared validator wants plain objects.
    const input = type === 'param' ? { ...(value as object) } : value;
    const result = await validateBody(metatype as new () => object, input);
    if (result.ok) return result.value;
    if (type === 'param')
      throw new ResourceNotFoundError(resourceOfParam(result.errors[0]?.pointer));
    throw new RequestValidationError(result.errors);
  }
}

/** `/columnId` → `Column`. */
function resourceOfParam(pointer: string | undefined): string {
  const name = pointer?.slice(1).replace(/Id$/, '') ?? '';
  return name ? name[0].toUpperCase() + name.slice(1) : 'Resource';
}
