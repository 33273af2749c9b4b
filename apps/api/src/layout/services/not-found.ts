import { ResourceNotFoundError } from '../../common/errors';

/** For `(await repository.find(scope)) ?? notFound('Column')`. */
export function notFound(resource: string): never {
  throw new ResourceNotFoundError(resource);
}
