import sanitizeHtml from 'sanitize-html';
import { SizedLru } from '../../common/cache/sized-lru';

// What a rich-text editor produces, nothing that runs: no <script>, <iframe>, <object>, event
// handler attributes or javascript: URLs (sanitize-html drops whatever is not listed here).
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'span',
    'u',
    's',
    'del',
    'ins',
    'sub',
    'sup',
    'mark',
    'font',
  ],
  allowedAttributes: {
    a: ['href', 'name', 'target', 'rel', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    font: ['color', 'face', 'size'],
    td: ['colspan', 'rowspan', 'align'],
    th: ['colspan', 'rowspan', 'align', 'scope'],
    '*': ['style', 'class'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowedStyles: {
    '*': {
      color: [/^#[0-9a-f]{3,8}$/i, /^rgba?\([\d\s.,%]+\)$/i, /^[a-z]+$/i],
      'background-color': [/^#[0-9a-f]{3,8}$/i, /^rgba?\([\d\s.,%]+\)$/i, /^[a-z]+$/i],
      'text-align': [/^(left|right|center|justify)$/],
      'font-size': [/^\d+(\.\d+)?(px|em|rem|%|pt)$/],
      'font-weight': [/^(normal|bold|bolder|lighter|\d{3})$/],
      'font-style': [/^(normal|italic|oblique)$/],
      'text-decoration': [/^[a-z\s-]+$/],
    },
  },
  disallowedTagsMode: 'discard',
};

// The HTML of an editor's text comes back unchanged again and again: an autosave sends a
// content's whole data when only its style changed, and a column's PUT carries every content of
// the column. sanitize-html parses and rebuilds a text every time, with its options and parser
// set up anew, so the answers for recent texts are kept, by their characters: two texts that are
// the same string sanitise alike. Bounded in characters (keys and answers); texts above
// KEPT_TEXT_MAX are sanitised every time and not kept.
const KEPT_CHARACTERS = 2 * 1024 * 1024;
const KEPT_TEXT_MAX = 16 * 1024;
const sanitised = new SizedLru<string>(
  KEPT_CHARACTERS,
  (html, clean) => html.length + clean.length,
);

/** Text content HTML, stored sanitised: ordinary formatting kept, anything executable removed. */
export function sanitizeTextHtml(html: string): string {
  const kept = sanitised.get(html);
  if (kept !== undefined) return kept;
  const clean = sanitizeHtml(html, OPTIONS);
  if (html.length <= KEPT_TEXT_MAX) sanitised.set(html, clean);
  return clean;
}
