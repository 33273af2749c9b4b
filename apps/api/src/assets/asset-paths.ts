import { appendPointer, isAssetPath, isObjectValue } from '@layout/contracts';

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
 * value in a member that may not hold one is left for validation to refuse. Every write's body
 * goes through here, and most name no asset: a pointer is spelled only for what is found.
 */
export function assetPathsIn(body: unknown): NamedAsset[] {
  const found: NamedAsset[] = [];
  collect(body, [], found);
  return found;
}

function collect(value: unknown, at: (string | number)[], found: NamedAsset[]): void {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      at.push(index);
      collect(value[index], at, found);
      at.pop();
    }
    return;
  }
  if (!isObjectValue(value)) return;
  for (const [key, member] of Object.entries(value)) {
    at.push(key);
    if (NAMING_MEMBERS.has(key) && isAssetPath(member)) {
      found.push({ path: member, pointer: pointerOf(at) });
    } else {
      collect(member, at, found);
    }
    at.pop();
  }
}

/** The RFC 6901 pointer of a path of keys and indexes. */
function pointerOf(at: readonly (string | number)[]): string {
  return at.reduce<string>((pointer, key) => appendPointer(pointer, key), '');
}
