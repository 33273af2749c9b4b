import { createHash } from 'node:crypto';

/**
 * Entity tags and the conditions of `If-Match` / `If-None-Match` (RFC 9110 §8.8.3, §13.1).
 * Tags are kept as they are written on the wire, quotes included (`"r12"`, `W/"r12"`).
 */
export type TagCondition = { readonly any: true } | { readonly tags: readonly string[] };

// One entity-tag (after any empty list elements), then a comma or the end: a tag may hold
// commas, so the list is read tag by tag.
const NEXT_TAG = /[\s,]*((?:W\/)?"[\x21\x23-\x7e\x80-\xff]*")\s*(?:,|$)/y;
const REST_IS_EMPTY = /^[\s,]*$/;

/**
 * The condition a header states, or `invalid` when it is not `*` nor a list of entity tags;
 * undefined when the header is absent.
 */
export function parseTagCondition(
  header: string | undefined,
): TagCondition | 'invalid' | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return { any: true };
  const tags: string[] = [];
  NEXT_TAG.lastIndex = 0;
  while (!REST_IS_EMPTY.test(value.slice(NEXT_TAG.lastIndex))) {
    const match = NEXT_TAG.exec(value);
    if (!match) return 'invalid';
    tags.push(match[1]);
  }
  return tags.length > 0 ? { tags } : 'invalid';
}

const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

/** `If-Match`: strong comparison, so a weak tag never matches (§13.1.1). */
export function matchesStrongly(condition: TagCondition, current: string): boolean {
  return 'any' in condition || condition.tags.includes(current);
}

/** `If-None-Match`: weak comparison (§13.1.2). */
export function matchesWeakly(condition: TagCondition, current: string): boolean {
  return 'any' in condition || condition.tags.some((tag) => opaque(tag) === opaque(current));
}

/**
 * A strong tag for a representation without a revision of its own (a list of links, of members,
 * a project's presence): the digest of its bytes, after a letter that says what it tags.
 */
export function digestTag(kind: string, text: string): string {
  return `"${kind}${createHash('md5').update(text).digest('hex')}"`;
}
