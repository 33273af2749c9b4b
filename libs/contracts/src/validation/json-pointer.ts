/** Escapes one reference token of an RFC 6901 JSON pointer (`~` first, so `/` is not escaped twice). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function appendPointer(pointer: string, token: string | number): string {
  return `${pointer}/${escapePointerToken(String(token))}`;
}
