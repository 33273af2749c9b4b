export { escapeHtml } from '../../problem-pages/problem-pages';

/**
 * A CSS string (`"…"`) holding `text`: every character outside a URL's plain ones is written as
 * a CSS escape, so that nothing in it ends the string, the declaration or the `<style>` element.
 */
export function cssString(text: string): string {
  const escaped = text.replace(
    /[^A-Za-z0-9\-._~:/?#[\]@!$&*+,;=%]/gu,
    (character) => `\\${character.codePointAt(0)!.toString(16)} `,
  );
  return `"${escaped}"`;
}

/**
 * A keyword, length, percentage or colour as a declaration's value: the characters those are
 * written with and nothing that could end the declaration, a block or the `<style>` element.
 */
export function isPlainCssValue(value: string): boolean {
  return /^[A-Za-z0-9#.,%() -]{1,200}$/.test(value);
}
