import {
  BACKGROUND_REPEAT_VALUES,
  isAssetPath,
  isBackgroundPosition,
  isBackgroundSize,
  isCssColor,
  isImageDimension,
  isNormalisedHttpUrl,
  isObjectValue,
} from '@layout/contracts';
import { sanitizeTextHtml } from '../../layout/content/html-sanitizer';
import { cssString, escapeHtml, isPlainCssValue } from './html-text';
import { PAGE_STYLES } from './page-styles';
import { renderQuote } from './quote-table';

/** A stored document as the JSON reads answer it; every member is checked again here. */
type Json = Record<string, unknown>;

/** The language the page declares: the service keeps none per project. */
const PAGE_LANGUAGE = 'en';

const VIDEO_PROVIDER_NAMES: Readonly<Record<string, string>> = {
  youtube: 'YouTube',
  vimeo: 'Vimeo',
  wistia: 'Wistia',
  loom: 'Loom',
};

/** The rules of each node that has a style, collected while the body is written. */
class NodeStyles {
  private readonly rules: string[] = [];

  /** A class naming the declarations, or undefined when there are none. */
  add(declarations: string[]): string | undefined {
    if (declarations.length === 0) return undefined;
    const name = `pl-n${this.rules.length}`;
    this.rules.push(`.${name}{${declarations.join(';')}}`);
    return name;
  }

  toString(): string {
    return this.rules.join('\n');
  }
}

/**
 * A project's document (as `GET /projects/<p>` answers it) as a standalone HTML page: its title,
 * each block a section, each row a 12-column grid, each content by its type, every style member
 * applied. Text HTML is sanitised again (it was when stored); every other text is escaped, and
 * every style value and URL is checked again before it is written: the page is as safe as the
 * rules, whatever the database holds.
 */
export function renderPage(project: Json): string {
  const styles = new NodeStyles();
  const title = text(project.title);
  const blocks = list(project.blocks)
    .map((block, index) => renderBlock(block, index, styles))
    .join('\n');
  return [
    '<!doctype html>',
    `<html lang="${PAGE_LANGUAGE}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    // No favicon request, which would be a 404 of this service for every reader.
    '<link rel="icon" href="data:,">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>\n${PAGE_STYLES}\n${styles.toString()}\n</style>`,
    '</head>',
    '<body>',
    '<main>',
    `<header class="pl-header"><h1>${escapeHtml(title)}</h1></header>`,
    blocks,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function renderBlock(block: Json, index: number, styles: NodeStyles): string {
  const description = text(block.description);
  const style = isObjectValue(block.style) ? (block.style as Json) : {};
  const color = text(style.backgroundColor);
  const declarations = backgroundDeclarations(style);
  if (isCssColor(color) && isPlainCssValue(color)) {
    declarations.push(`background-color:${color}`);
  }
  const classes = classList('pl-block', styles.add(declarations));
  const headingId = `pl-block-${index}`;
  const heading =
    description === '' ? '' : `<h2 id="${headingId}">${escapeHtml(description)}</h2>\n`;
  const labelled = description === '' ? '' : ` aria-labelledby="${headingId}"`;
  const rows = list(block.rows)
    .map((row) => renderRow(row, styles))
    .join('\n');
  return `<section class="${classes}"${labelled}><div class="pl-inner">\n${heading}${rows}\n</div></section>`;
}

function renderRow(row: Json, styles: NodeStyles): string {
  const columns = list(row.columns)
    .map((column) => renderColumn(column, styles))
    .join('\n');
  return `<div class="pl-row">\n${columns}\n</div>`;
}

function renderColumn(column: Json, styles: NodeStyles): string {
  const size = Number(column.size);
  const span = Number.isInteger(size) && size >= 1 && size <= 12 ? size : 12;
  const contents = list(column.contents)
    .map((content) => renderContent(content, styles))
    .join('\n');
  return `<div class="pl-column pl-span-${span}">\n${contents}\n</div>`;
}

function renderContent(content: Json, styles: NodeStyles): string {
  const style = isObjectValue(content.style) ? (content.style as Json) : {};
  const data = isObjectValue(content.data) ? (content.data as Json) : {};
  const own = styles.add(backgroundDeclarations(style));
  switch (content.type) {
    case 'text':
      return `<div class="${classList('pl-content pl-text', own)}">${sanitizeTextHtml(text(data.html))}</div>`;
    case 'image':
      return renderImage(data, classList('pl-content pl-image', own), styles);
    case 'video':
      return renderVideo(data, classList('pl-content pl-video', own));
    case 'quote':
      return `<div class="${classList('pl-content pl-quote', own)}">${renderQuote(data)}</div>`;
    default:
      return `<div class="${classList('pl-content pl-empty', own)}"></div>`;
  }
}

function renderImage(data: Json, classes: string, styles: NodeStyles): string {
  const url = imageUrl(data.url);
  if (url === undefined) return `<div class="${classes}"></div>`;
  const attributes = [`src="${escapeHtml(url)}"`, `alt="${escapeHtml(text(data.alt))}"`];
  const declarations: string[] = [];
  for (const member of ['width', 'height'] as const) {
    const value = data[member];
    if (!isImageDimension(value)) continue;
    if (typeof value === 'number') {
      if (Number.isInteger(value)) attributes.push(`${member}="${value}"`);
      declarations.push(`${member}:${value}px`);
    } else if (typeof value === 'string' && isPlainCssValue(value)) {
      declarations.push(`${member}:${value}`);
    }
  }
  const own = styles.add(declarations);
  if (own !== undefined) attributes.push(`class="${own}"`);
  return `<figure class="${classes}"><img ${attributes.join(' ')}></figure>`;
}

function renderVideo(data: Json, classes: string): string {
  const url = data.url;
  if (!isNormalisedHttpUrl(url)) return `<div class="${classes}"></div>`;
  const href = escapeHtml(url);
  if (data.provider === 'file') {
    return (
      `<div class="${classes}"><video controls preload="metadata" src="${href}">` +
      `<a href="${href}">Download the video</a></video></div>`
    );
  }
  const provider = VIDEO_PROVIDER_NAMES[text(data.provider)];
  const label = provider === undefined ? 'Watch the video' : `Watch the video on ${provider}`;
  return `<div class="${classes}"><a href="${href}" rel="noopener noreferrer">${label}</a></div>`;
}

/** A style's background and opacity, each member only when it is a value the rules accept. */
function backgroundDeclarations(style: Json): string[] {
  const declarations: string[] = [];
  const image = imageUrl(style.backgroundImage);
  if (image !== undefined) declarations.push(`background-image:url(${cssString(image)})`);
  const repeat = text(style.backgroundRepeat);
  if ((BACKGROUND_REPEAT_VALUES as readonly string[]).includes(repeat)) {
    declarations.push(`background-repeat:${repeat}`);
  }
  const size = text(style.backgroundSize);
  if (isBackgroundSize(size) && isPlainCssValue(size)) {
    declarations.push(`background-size:${size}`);
  }
  const position = text(style.backgroundPosition);
  if (isBackgroundPosition(position) && isPlainCssValue(position)) {
    declarations.push(`background-position:${position}`);
  }
  const opacity = style.opacity;
  if (typeof opacity === 'number' && opacity >= 0 && opacity <= 1) {
    declarations.push(`opacity:${opacity}`);
  }
  return declarations;
}

function imageUrl(value: unknown): string | undefined {
  return isAssetPath(value) || isNormalisedHttpUrl(value) ? value : undefined;
}

function classList(base: string, own: string | undefined): string {
  return own === undefined ? base : `${base} ${own}`;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter((item): item is Json => isObjectValue(item)) : [];
}
