import { gunzipSync } from 'node:zlib';
import { DomUtils, parseDocument } from 'htmlparser2';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { PAGE_CSP } from '../../apps/api/src/publishing/html-page';
import { Api, createLayout, startTestApp } from '../support/test-app';

const HOSTILE = '</title><script>alert(1)</script><img src=x onerror=alert(2)>"\'&';

let app: NestFastifyApplication;
let api: Api;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  api = new Api(app);
  ({ token } = await api.newAccount('render'));
}, 60_000);

afterAll(async () => {
  await app?.close();
});

/** A project whose every text is hostile, with one content of each type. */
async function hostileProject() {
  const paths = await createLayout(api, token, 8);
  await api.put(paths.project, { title: HOSTILE }, { token });
  const block = await api.put(
    paths.block,
    {
      description: HOSTILE,
      style: {
        backgroundColor: '#123456',
        backgroundImage: 'https://example.com/a(c)"d</style>.png',
        backgroundRepeat: 'repeat-x',
        backgroundSize: '50% auto',
        backgroundPosition: 'left top',
        opacity: 0.5,
      },
    },
    { token },
  );
  expect(block.status).toBe(200);
  const contents = [
    {
      type: 'text',
      data: { html: `<p onclick="x()">Hello <script>alert(3)</script>${HOSTILE}</p>` },
    },
    {
      type: 'image',
      style: { backgroundSize: 'contain', opacity: 0.25 },
      data: {
        url: 'https://example.com/i.png?a="><script>',
        alt: HOSTILE,
        width: 320,
        height: '50%',
      },
    },
    { type: 'video', data: { url: 'https://www.youtube.com/watch?v=abc"<x>' } },
    { type: 'video', data: { url: 'https://example.com/clip.mp4', provider: 'file' } },
    {
      type: 'quote',
      data: {
        options: { currency: 'EUR' },
        content: {
          fields: [
            { id: 'name', label: HOSTILE, show: true },
            { id: 'hidden', label: 'Secret column', show: false },
            { id: 'quantity', label: 'Qty', show: true },
            { id: 'price', label: 'Price', show: true },
          ],
          items: [
            { id: '1', name: HOSTILE, hidden: 'do not show', quantity: 2, price: 1250.5 },
            { id: '2', name: 'Hosting', hidden: 'x', quantity: 3, price: 10 },
          ],
        },
      },
    },
  ];
  for (const body of contents) {
    const created = await api.post(paths.contents, body, { token });
    expect(created.status).toBe(201);
  }
  const second = await api.post(paths.columns, { size: 4 }, { token });
  expect(second.status).toBe(201);
  return paths;
}

describe('GET /projects/<p>/render', () => {
  it('answers a standalone, accessible HTML page with every text escaped and no script', async () => {
    const paths = await hostileProject();
    const page = await api.get(`${paths.project}/render`, { token });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(PAGE_CSP).not.toMatch(/script-src/);
    expect(PAGE_CSP).toMatch(/default-src 'none'/);
    const html = page.text;
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    // Nothing that runs, and no markup made of the project's texts.
    expect(html).not.toMatch(/<script/i);
    const document = parseDocument(html);
    const elements = DomUtils.findAll(() => true, document.children);
    expect(elements.filter((element) => element.name === 'script')).toEqual([]);
    const handlers = elements.flatMap((element) =>
      Object.keys(element.attribs).filter((name) => name.startsWith('on')),
    );
    expect(handlers).toEqual([]);
    // The hostile title is text, not markup: one img per image, none from the texts' own tags
    // but the sanitised one the text content kept.
    expect(elements.filter((element) => element.name === 'title')[0].children).toHaveLength(1);
    expect(DomUtils.textContent(elements.filter((element) => element.name === 'title'))).toBe(
      HOSTILE,
    );
    const escaped =
      '&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&#39;&amp;';
    expect(html).toContain(`<title>${escaped}</title>`);
    expect(html).toContain(`<h1>${escaped}</h1>`);
    expect(html).toContain(`>${escaped}</h2>`);
    expect(html).toContain(`alt="${escaped}"`);
    expect(html).toContain(`<th scope="col">${escaped}</th>`);
    // Text HTML stays formatted, sanitised.
    expect(html).toContain('<p>Hello ');
    // Each row a 12-column grid; the columns span their sizes and stack below 600 px.
    expect(html).toContain('grid-template-columns:repeat(12,minmax(0,1fr))');
    expect(html).toContain('<div class="pl-column pl-span-8">');
    expect(html).toContain('<div class="pl-column pl-span-4">');
    expect(html).toMatch(
      /@media \(max-width:599\.98px\)\{\.pl-row\{grid-template-columns:minmax\(0,1fr\)\}/,
    );
    // Every style member, the image's URL quoted and escaped within CSS.
    expect(html).toContain('background-color:#123456');
    expect(html).toContain('background-repeat:repeat-x');
    expect(html).toContain('background-size:50% auto');
    expect(html).toContain('background-position:left top');
    expect(html).toContain('opacity:0.5');
    expect(html).toMatch(
      /background-image:url\("https:\/\/example\.com\/a%28c%29%22d%3C\/style%3E\.png"\)/,
    );
    expect(html).toContain('background-size:contain');
    expect(html).toContain('opacity:0.25');
    // The style element cannot be ended from inside it.
    expect(html.match(/<\/style>/g)).toHaveLength(1);
    // An image with its alt, width and height; videos as a link, or a player for a file.
    expect(html).toContain('src="https://example.com/i.png?a=%22%3E%3Cscript%3E"');
    expect(html).toMatch(/<img [^>]*width="320"/);
    expect(html).toContain('height:50%');
    expect(html).toContain('href="https://www.youtube.com/watch?v=abc%22%3Cx%3E"');
    expect(html).toContain('Watch the video on YouTube');
    expect(html).toContain(
      '<video controls preload="metadata" src="https://example.com/clip.mp4">',
    );
    // The quote: visible fields only, amounts in the currency, the total of quantity × price.
    expect(html).not.toContain('Secret column');
    expect(html).not.toContain('do not show');
    expect(html).toContain('<td class="pl-number">€1,250.50</td>');
    const total = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(
      2 * 1250.5 + 3 * 10,
    );
    expect(html).toContain(`<td class="pl-number pl-total">${total}</td>`);
    expect(html).toMatch(/<tfoot><tr><th scope="row"[^>]*>Total<\/th>/);
  });

  it('tags the page with the project tag: 304 on it, a new page after a write', async () => {
    const paths = await createLayout(api, token);
    const project = await api.get(paths.project, { token });
    const first = await api.get(`${paths.project}/render`, { token });
    expect(first.status).toBe(200);
    expect(first.headers.etag).toBe(project.headers.etag);
    const again = await api.get(`${paths.project}/render`, {
      token,
      headers: { 'if-none-match': first.headers.etag! },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);

    await api.put(paths.project, { title: 'Renamed' }, { token });
    const changed = await api.get(`${paths.project}/render`, {
      token,
      headers: { 'if-none-match': first.headers.etag! },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    expect(changed.text).toContain('<title>Renamed</title>');
    // Served again from what this instance keeps: the same bytes.
    const kept = await api.get(`${paths.project}/render`, { token });
    expect(kept.text).toBe(changed.text);
  });

  it('renders a past revision as it was, with that revision’s tag, and 404 for one never made', async () => {
    const paths = await createLayout(api, token);
    await api.put(paths.project, { title: 'Before' }, { token });
    const before = (await api.get(paths.project, { token })).body.revision as number;
    await api.put(paths.project, { title: 'After' }, { token });
    const past = await api.get(`${paths.project}/revisions/${before}/render`, { token });
    expect(past.status).toBe(200);
    expect(past.headers.etag).toBe(`"r${before}"`);
    expect(past.text).toContain('<title>Before</title>');
    const kept = await api.get(`${paths.project}/revisions/${before}/render`, {
      token,
      headers: { 'if-none-match': `"r${before}"` },
    });
    expect(kept.status).toBe(304);
    const never = await api.get(`${paths.project}/revisions/9999/render`, { token });
    expect(never.status).toBe(404);
  });

  it('compresses the page when asked, once per tag', async () => {
    const paths = await hostileProject();
    const url = `${api.baseUrl}${paths.project}/render`;
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('vary')).toMatch(/accept-encoding/i);
    // fetch decodes it: the decoded page is the page.
    const plain = await api.get(`${paths.project}/render`, { token });
    expect(await response.text()).toBe(plain.text);
    // And the bytes on the wire are gzip.
    const { request } = await import('node:http');
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const sent = request(
        url,
        { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve(Buffer.concat(chunks)));
        },
      );
      sent.on('error', reject);
      sent.end();
    });
    expect(gunzipSync(raw).toString('utf8')).toBe(plain.text);
  });

  it('is a 404 for another account, and a 401 without a token', async () => {
    const paths = await createLayout(api, token);
    const other = await api.newAccount('render-other');
    expect((await api.get(`${paths.project}/render`, { token: other.token })).status).toBe(404);
    expect((await api.get(`${paths.project}/render`)).status).toBe(401);
    expect(
      (await api.get(`${paths.project}/revisions/1/render`, { token: other.token })).status,
    ).toBe(404);
  });
});
