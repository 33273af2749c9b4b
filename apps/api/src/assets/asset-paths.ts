import { isAssetPath, isObjectValue } from '@layout/contracts';

/** An asset path in a request body, and the RFC 6901 pointer to the member that holds it. */
export interface NamedAsset {
  readonly path: string;
  readonly pointer: string;
}

/** The members that may name an asset: an image's `url`, any style's `backgroundImage`. */
const NAMING_MEMBERS = new Set(['url', 'backgroundImage']);

/**
 * Every asset path (`/assets/<id>`) that a write's body names, wherever it is in the body: a
 * content's, a column's `contents`, a block's style, and any tree a later operation takes. A
 * value in a member that may not hold one is left for validation to refuse.
 */
export function assetPathsIn(body: unknown, pointer = ''): NamedAsset[] {
  if (Array.isArray(body)) {
    return body.flatMap((item, index) => assetPathsIn(item, `${pointer}/${index}`));
  }
  if (!isObjectValue(body)) return [];
  return Object.entries(body).flatMap(([key, value]) => {
    const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (NAMING_MEMBERS.has(key) && isAssetPath(value)) return [{ path: value, pointer: at }];
    return assetPathsIn(value, at);
  });
}
