import { type ArgumentMetadata, Injectable, ValidationPipe } from '@nestjs/common';
import {
  CONTRACT_TRANSFORM_OPTIONS,
  CONTRACT_VALIDATION_OPTIONS,
  toFieldErrors,
  validateBody,
} from '@layout/contracts';
import { RequestValidationError, ResourceNotFoundError } from '../errors';
import { RESOURCE_ID, REVISION_NUMBER } from './resource-id';

/**
 * The global ValidationPipe. Bodies go through the shared DTO library's `validateBody`, the very
 * function a browser app calls, so client and server can never disagree; it also screens the raw
 * body (reserved keys such as `constructor`, nesting depth) before class-transformer sees it. A
 * path id of the wrong shape cannot name a resource: that is a 404, never a 400.
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
    if (type === 'param' && metatype) return checkedPathIds(value);
    if (!metatype || !this.toValidate(metadata) || type !== 'body') {
      return super.transform(value, metadata);
    }
    const result = await validateBody(metatype as new () => object, value);
    if (result.ok) return result.value;
    throw new RequestValidationError(result.errors);
  }
}

/**
 * Parameters that are no id: a share link's token, whose shape its service checks (a malformed
 * one is a link that does not exist, answered as such).
 */
const NOT_IDS = new Set(['token']);

/**
 * Every other path parameter of this API names a resource: an id, or a revision's number. One
 * precompiled pattern per parameter is all the checking they need (class-validator here cost a
 * measurable share of a read's CPU). Fastify builds params on a null prototype; a plain copy
 * goes on.
 */
function checkedPathIds(value: unknown): Record<string, string> {
  const params = { ...(value as Record<string, string>) };
  for (const [name, id] of Object.entries(params)) {
    if (NOT_IDS.has(name)) continue;
    const pattern = name === 'revision' ? REVISION_NUMBER : RESOURCE_ID;
    if (!pattern.test(id)) throw new ResourceNotFoundError(resourceOfParam(name));
  }
  return params;
}

/** `columnId` → `Column`. */
function resourceOfParam(param: string): string {
  const name = param.replace(/Id$/, '');
  return name ? name[0].toUpperCase() + name.slice(1) : 'Resource';
}
