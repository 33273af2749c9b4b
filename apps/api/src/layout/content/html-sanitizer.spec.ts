import { jest } from '@jest/globals';
import * as fc from 'fast-check';
import sanitizeHtml from 'sanitize-html';
import { sanitizeTextHtml } from './html-sanitizer';

// The real sanitize-html, watched: how often it runs is what the kept answers save.
jest.mock('sanitize-html', () => {
  const actual = jest.requireActual<typeof import('sanitize-html')>('sanitize-html');
  return Object.assign(jest.fn(actual), actual);
});
const sanitizeRuns = sanitizeHtml as unknown as jest.Mock;

/** Every style attribute of sanitised HTML (sanitize-html always writes them double-quoted). */
function styleAttributes(html: string): string[] {
  return [...html.matchAll(/\sstyle="([^"]*)"/g)].map(([, style]) => style);
}

describe('sanitizeTextHtml', () => {
  it.each([
    ['<p style="background-image:url(https://e.com/x.png)">a</p>', '<p>a</p>'],
    [
      '<p style="color:red;background:url(javascript:alert(1))">a</p>',
      '<p style="color:red">a</p>',
    ],
    ['<p style="color:url(x)">a</p>', '<p>a</p>'],
    ['<p style="color:\\75rl(x)">a</p>', '<p>a</p>'],
    ['<p style="color:red\\;background:url(x)">a</p>', '<p>a</p>'],
    ['<p style="color:red/*x*/;background:url(x)">a</p>', '<p style="color:red">a</p>'],
    ['<p style="color:expression(alert(1))">a</p>', '<p>a</p>'],
    ['<p style="text-decoration:underline url(x)">a</p>', '<p>a</p>'],
    [
      '<p style="font-size:12px;behavior:url(x.htc);-moz-binding:url(x)">a</p>',
      '<p style="font-size:12px">a</p>',
    ],
    ['<p style="COLOR:RED;BACKGROUND:URL(x)">a</p>', '<p>a</p>'],
    ['<style>p{background:url(x)}</style><p>a</p>', '<p>a</p>'],
  ])('lets no url() through a style: %j', (html, sanitised) => {
    expect(sanitizeTextHtml(html)).toBe(sanitised);
  });

  it('keeps the formatting styles it allows', () => {
    const html =
      '<p style="color:rgba(1,2,3,0.5);background-color:#fff;text-align:center;font-size:1.5em">a</p>';
    expect(sanitizeTextHtml(html)).toBe(html);
  });

  it.each([
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="jav&#x09;ascript:alert(1)">x</a>', '<a>x</a>'],
    ['<img src="https://e.com/a.png" onerror="alert(1)">', '<img src="https://e.com/a.png" />'],
    ['<svg><image href="x"/></svg>', ''],
  ])('removes what runs: %j', (html, sanitised) => {
    expect(sanitizeTextHtml(html)).toBe(sanitised);
  });

  it('never leaves url(, expression( or an escape in a style attribute', () => {
    const declaration = fc.oneof(
      fc.constantFrom(
        'color:red',
        'color:#abc',
        'color:rgb(1,2,3)',
        'background-color:blue',
        'font-size:12px',
        'text-align:left',
        'text-decoration:underline',
        'background:url(x)',
        'background-image:url("x")',
        'color:url(x)',
        'COLOR:URL(x)',
        'color:\\75rl(x)',
        'color:u\\rl(x)',
        'color:expression(alert(1))',
        'list-style:url(x)',
        'text-decoration:underline url(x)',
        'font-size:12px url(x)',
        'color:red/*',
        '*/background:url(x)',
        'color:red\\',
        'content:"\\29"',
      ),
      fc
        .tuple(
          fc.constantFrom('color', 'background-color', 'text-decoration', 'font-size', 'Color'),
          fc.string({ unit: fc.constantFrom(...'url(x)\\;:"\' /*-#0a'.split('')), maxLength: 20 }),
        )
        .map(([property, value]) => `${property}:${value}`),
    );
    fc.assert(
      fc.property(fc.array(declaration, { maxLength: 5 }), (declarations) => {
        const style = declarations.join(';').replace(/"/g, '&quot;');
        for (const kept of styleAttributes(sanitizeTextHtml(`<p style="${style}">a</p>`))) {
          expect(kept).not.toMatch(/url\s*\(|expression\s*\(|\\|&/i);
        }
      }),
      { numRuns: 1000 },
    );
  });

  describe('kept answers', () => {
    it('sanitises a text it has seen once, and answers it alike', () => {
      const html = `<p onclick="x()">kept ${Math.random()}</p><script>y()</script>`;
      sanitizeRuns.mockClear();
      const first = sanitizeTextHtml(html);
      const again = sanitizeTextHtml(html);
      expect(again).toBe(first);
      expect(first).toMatch(/^<p>kept [\d.]+<\/p>$/);
      expect(sanitizeRuns).toHaveBeenCalledTimes(1);
    });

    it('sanitises any other text anew, even one character apart', () => {
      const html = `<p>one ${Math.random()}</p>`;
      sanitizeRuns.mockClear();
      sanitizeTextHtml(html);
      expect(sanitizeTextHtml(`${html}<script>x()</script>`)).toBe(html);
      expect(sanitizeRuns).toHaveBeenCalledTimes(2);
    });

    it('keeps no answer for a long text, which it sanitises every time', () => {
      const html = `<p>${'long '.repeat(5000)}</p><img src="javascript:x()">`;
      sanitizeRuns.mockClear();
      expect(sanitizeTextHtml(html)).toBe(`<p>${'long '.repeat(5000)}</p><img />`);
      sanitizeTextHtml(html);
      expect(sanitizeRuns).toHaveBeenCalledTimes(2);
    });
  });
});
