import { type ContentRecord } from '../layout.records';
import { ContentComposer } from './content-composer';

const DEFAULT_STYLE = {
  backgroundImage: '',
  backgroundRepeat: 'no-repeat',
  backgroundSize: 'cover',
  backgroundPosition: 'center center',
  opacity: 1,
};

const STORED_STYLE = {
  backgroundImage: 'https://cdn.example.com/bg.png',
  backgroundRepeat: 'repeat',
  backgroundSize: '50% auto',
  backgroundPosition: 'right bottom',
  opacity: 0.25,
} as const;

function stored(overrides: Partial<ContentRecord> = {}): ContentRecord {
  return {
    id: 'c1',
    type: 'text',
    style: { ...STORED_STYLE },
    data: { html: '<p>stored</p>' },
    ...overrides,
  };
}

describe('ContentComposer', () => {
  const composer = new ContentComposer();

  describe('style', () => {
    it('fills in the whole default style when style is left out on create', () => {
      expect(composer.compose({ type: 'empty' })).toEqual({
        type: 'empty',
        style: DEFAULT_STYLE,
        data: {},
      });
    });

    it('merges a partial style onto the defaults', () => {
      const { style } = composer.compose({
        type: 'empty',
        style: { opacity: 0.5, backgroundRepeat: 'repeat-y' },
      });
      expect(style).toEqual({ ...DEFAULT_STYLE, opacity: 0.5, backgroundRepeat: 'repeat-y' });
    });

    it('does not let members that are present but undefined override the defaults', () => {
      const { style } = composer.compose({
        type: 'empty',
        style: { opacity: undefined, backgroundSize: 'contain', backgroundImage: undefined },
      });
      expect(style).toEqual({ ...DEFAULT_STYLE, backgroundSize: 'contain' });
      expect(style.opacity).toBe(1);
    });

    it('keeps the stored style when style is left out on update', () => {
      const { style } = composer.compose({ type: 'text' }, stored());
      expect(style).toEqual(STORED_STYLE);
    });

    it('replaces the stored style whole (missing members take defaults) when style is given', () => {
      const { style } = composer.compose({ type: 'text', style: { opacity: 0.75 } }, stored());
      expect(style).toEqual({ ...DEFAULT_STYLE, opacity: 0.75 });
    });

    it('never hands out the shared default object, which callers could mutate', () => {
      const first = composer.compose({ type: 'empty' });
      first.style.opacity = 0;
      expect(composer.compose({ type: 'empty' }).style.opacity).toBe(1);
    });
  });

  describe('text html', () => {
    it('removes scripts, event handlers, javascript: URLs and frames, keeps formatting', () => {
      const { data } = composer.compose({
        type: 'text',
        data: {
          html:
            '<p onclick="steal()">Hello <strong>world</strong><script>alert(1)</script>' +
            '<a href="javascript:alert(2)">x</a><iframe src="https://evil.example"></iframe>' +
            '<img src="https://cdn.example.com/a.png" onerror="alert(3)"></p>',
        },
      });
      const html = data.html as string;
      expect(html).toBe(
        '<p>Hello <strong>world</strong><a>x</a><img src="https://cdn.example.com/a.png" /></p>',
      );
      for (const forbidden of ['<script', 'alert', 'onclick', 'onerror', 'javascript:', 'iframe']) {
        expect(html).not.toContain(forbidden);
      }
    });

    it('keeps ordinary formatting untouched', () => {
      const html = '<h2>Title</h2><p><em>a</em> <u>b</u> <a href="https://example.com">c</a></p>';
      expect(composer.compose({ type: 'text', data: { html } }).data).toEqual({ html });
    });

    it('sanitises html given on update too', () => {
      const { data } = composer.compose(
        { type: 'text', data: { html: '<b>ok</b><script>x()</script>' } },
        stored(),
      );
      expect(data).toEqual({ html: '<b>ok</b>' });
    });

    it('does not mutate the body it was given', () => {
      const body = { type: 'text' as const, data: { html: '<i>x</i><script>y()</script>' } };
      composer.compose(body);
      expect(body.data.html).toBe('<i>x</i><script>y()</script>');
    });
  });

  describe('video provider', () => {
    it.each([
      ['https://www.youtube.com/watch?v=abc', 'youtube'],
      ['https://vimeo.com/1234', 'vimeo'],
      ['https://fast.wistia.net/embed/iframe/x', 'wistia'],
      ['https://www.loom.com/share/x', 'loom'],
      ['https://cdn.example.com/movie.mp4', 'file'],
    ])('infers the provider of %s as %s when it is left out', (url, provider) => {
      expect(composer.compose({ type: 'video', data: { url } }).data).toEqual({ url, provider });
    });

    it('keeps a provider that is given, even when the URL suggests another', () => {
      const data = { url: 'https://www.youtube.com/watch?v=abc', provider: 'file' };
      expect(composer.compose({ type: 'video', data }).data).toEqual(data);
    });

    it('infers nothing when there is no URL', () => {
      expect(composer.compose({ type: 'video', data: {} }).data).toEqual({});
    });
  });

  describe('quote currency', () => {
    it('names the default currency in options that leave it out', () => {
      const content = { fields: [], items: [] };
      expect(composer.compose({ type: 'quote', data: { options: {}, content } }).data).toEqual({
        options: { currency: 'USD' },
        content,
      });
    });

    it('keeps a currency that is given, and adds no options to a quote without them', () => {
      const data = { options: { currency: 'EUR' } };
      expect(composer.compose({ type: 'quote', data }).data).toEqual(data);
      expect(composer.compose({ type: 'quote', data: {} }).data).toEqual({});
    });
  });

  describe('data', () => {
    it('keeps the stored data when the type is unchanged and data is left out', () => {
      const current = stored({ type: 'image', data: { url: 'https://x.example/a.png', alt: 'a' } });
      expect(composer.compose({ type: 'image' }, current)).toEqual({
        type: 'image',
        style: STORED_STYLE,
        data: { url: 'https://x.example/a.png', alt: 'a' },
      });
    });

    it('resets data to {} when the type changes and data is left out', () => {
      expect(composer.compose({ type: 'image' }, stored())).toEqual({
        type: 'image',
        style: STORED_STYLE,
        data: {},
      });
    });

    it('replaces the stored data whole when data is given', () => {
      const current = stored({ type: 'image', data: { url: 'https://x.example/a.png', alt: 'a' } });
      expect(composer.compose({ type: 'image', data: { alt: 'b' } }, current).data).toEqual({
        alt: 'b',
      });
    });

    it('drops undefined members and turns DTO instances into plain objects', () => {
      class ImageData {
        url = 'https://x.example/a.png';
        alt: string | undefined = undefined;
      }
      const { data } = composer.compose({ type: 'image', data: new ImageData() });
      expect(data).toEqual({ url: 'https://x.example/a.png' });
      expect(data).not.toHaveProperty('alt');
      expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    });
  });
});
