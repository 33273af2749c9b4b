import { renderPage } from './page-renderer';

const content = (type: string, style: object, data: object = {}) => ({
  _id: 'c',
  type,
  style,
  data,
});

/** A project of one block, row and column holding `contents`, with the block's `style`. */
function page(contents: object[], blockStyle: object = {}, title = 'T') {
  return renderPage({
    title,
    blocks: [
      {
        description: 'B',
        style: blockStyle,
        rows: [{ columns: [{ size: '6', contents }] }],
      },
    ],
  });
}

/** The page's own stylesheet: everything between its one <style> and </style>. */
const styleOf = (html: string) => html.slice(html.indexOf('<style>'), html.indexOf('</style>'));

describe('renderPage', () => {
  // Stored values are validated on write; these are written as if they were not (an old row,
  // a restore of one, the database edited): the page stays safe all the same.
  it.each([
    ['backgroundSize', 'cover;}</style><script>alert(1)</script>'],
    ['backgroundSize', 'cover; background: url(https://evil.example/x)'],
    ['backgroundPosition', 'left;}body{display:none'],
    ['backgroundRepeat', 'repeat;}*{color:red'],
    ['backgroundImage', 'javascript:alert(1)'],
    ['backgroundImage', 'https://e.com/a.png");}body{background:url("https://evil.example'],
    ['opacity', '0;}body{display:none'],
  ])('drops a %s of %j rather than write it into CSS', (member, value) => {
    const html = page([content('empty', { [member]: value })]);
    const css = styleOf(html);
    expect(css).not.toContain('evil.example');
    expect(css).not.toContain('display:none');
    expect(css).not.toContain('javascript');
    expect(html).not.toContain('<script');
    expect(html.match(/<\/style>/g)).toHaveLength(1);
  });

  it('drops a block colour that is no colour', () => {
    const css = styleOf(page([], { backgroundColor: 'red;}body{display:none' }));
    expect(css).not.toContain('display:none');
    expect(styleOf(page([], { backgroundColor: 'rgb(1, 2, 3)' }))).toContain(
      'background-color:rgb(1, 2, 3)',
    );
  });

  it('writes an image URL as an escaped CSS string and an escaped attribute', () => {
    const url = 'https://e.com/a%22b%3C/style%3E.png';
    const html = page([content('image', { backgroundImage: url }, { url, alt: '"><b>x</b>' })]);
    expect(styleOf(html)).toContain(`background-image:url("${url}")`);
    expect(html).toContain(`src="${url}"`);
    expect(html).toContain('alt="&quot;&gt;&lt;b&gt;x&lt;/b&gt;"');
  });

  it('sanitises text HTML again, and shows no URL of a scheme it does not allow', () => {
    const html = page([
      content('text', {}, { html: '<p onclick="x()">a<script>b()</script></p><iframe src="x">' }),
      content('image', {}, { url: 'javascript:alert(1)' }),
      content('video', {}, { url: 'data:text/html,<script>', provider: 'file' }),
    ]);
    expect(html).toContain('<p>a</p>');
    expect(html).not.toMatch(/onclick|<script|<iframe|javascript:|data:text/);
  });

  it('spans each column its size, and falls back to the whole row for a size it cannot read', () => {
    const html = renderPage({
      title: 'T',
      blocks: [{ rows: [{ columns: [{ size: '4' }, { size: '13' }, { size: 'x' }] }] }],
    });
    expect(html).toContain('pl-span-4');
    expect(html.match(/pl-span-12"/g)).toHaveLength(2);
  });
});
