import { RequestValidationError } from '../../common/errors';

/**
 * An update body may carry the `_id` the client read (so a response can be sent back as is);
 * it must then name the resource of the path.
 */
export function assertPathId(bodyId: string | undefined, pathId: string): void {
  if (bodyId !== undefined && bodyId !== pathId) {
    throw new RequestValidationError([
      { pointer: '/_id', detail: 'must be the id in the path, or be left out' },
    ]);
  }
}
