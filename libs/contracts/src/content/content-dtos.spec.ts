import { DEFAULT_CONTENT_STYLE } from './content-style';
import { ContentStyleDto } from './content-style.dto';
import { CreateContentDto } from './create-content.dto';
import { EmptyDataDto } from './data/empty-data.dto';
import { ImageDataDto } from './data/image-data.dto';
import { QuoteDataDto } from './data/quote-data.dto';
import { TextDataDto } from './data/text-data.dto';
import { VideoDataDto } from './data/video-data.dto';
import { type TypedContentResponse } from './content.response';
import { UpdateContentDto } from './update-content.dto';
import { TEXT_HTML_MAX_LENGTH } from '../limits';
import { validateBody } from '../validation/validate-body';

const TYPE_DETAIL = 'must be one of: empty, text, image, video, quote';
const URL_DETAIL = 'must be an absolute http or https URL of at most 2048 characters';
const ASSET_OR = 'the path of an uploaded asset (/assets/<id>)';
const IMAGE_URL_DETAIL = `${URL_DETAIL}, or ${ASSET_OR}`;
const BACKGROUND_DETAIL = `must be "", an absolute http or https URL of at most 2048 characters, or ${ASSET_OR}`;

describe('CreateContentDto', () => {
  it('accepts {"type":"empty"} alone', async () => {
    const result = await validateBody(CreateContentDto, { type: 'empty' });
    expect(result).toEqual({ ok: true, value: { type: 'empty' }, errors: [] });
    expect(result.value).toBeInstanceOf(CreateContentDto);
  });

  it('accepts a full style and builds it as ContentStyleDto', async () => {
    const style = {
      backgroundImage: 'https://example.com/bg.jpg',
      backgroundRepeat: 'repeat-x',
      backgroundSize: 'auto 100%',
      backgroundPosition: 'left 10px',
      opacity: 0.25,
    };
    const result = await validateBody(CreateContentDto, { type: 'text', style, position: 0 });
    expect(result.errors).toEqual([]);
    expect(result.value?.style).toBeInstanceOf(ContentStyleDto);
    expect(result.value?.style).toEqual(style);
    expect(
      (await validateBody(CreateContentDto, { type: 'empty', style: DEFAULT_CONTENT_STYLE })).ok,
    ).toBe(true);
  });

  it.each([
    ['empty', {}, EmptyDataDto],
    ['text', { html: '<p>Hello <b>world</b></p>' }, TextDataDto],
    ['text', { html: 'x'.repeat(TEXT_HTML_MAX_LENGTH) }, TextDataDto],
    [
      'image',
      { url: 'https://example.com/a.png', width: '600px', height: 'auto', alt: 'A' },
      ImageDataDto,
    ],
    ['image', { width: 600, height: '50%' }, ImageDataDto],
    ['video', { url: 'https://youtu.be/x', provider: 'youtube' }, VideoDataDto],
    ['video', { url: 'https://example.com/movie.mp4' }, VideoDataDto],
    ['quote', { options: { currency: 'EUR' } }, QuoteDataDto],
    ['quote', {}, QuoteDataDto],
  ])('accepts %s data %j', async (type, data, cls) => {
    const result = await validateBody(CreateContentDto, { type, data });
    expect(result.errors).toEqual([]);
    expect(result.value?.data).toBeInstanceOf(cls);
    expect(result.value?.data).toEqual(data);
  });

  it.each([
    [{}, '/type', 'is required'],
    [{ type: 'carousel' }, '/type', TYPE_DETAIL],
    [{ type: 'TEXT' }, '/type', TYPE_DETAIL],
    [{ type: 1 }, '/type', TYPE_DETAIL],
    [{ type: 'text', id: 'x' }, '/id', 'is not a known member'],
    [{ type: 'text', style: { color: 'red' } }, '/style/color', 'is not a known member'],
    [{ type: 'text', style: [] }, '/style', 'must be an object'],
    [
      { type: 'text', style: { backgroundImage: 'javascript:alert(1)' } },
      '/style/backgroundImage',
      BACKGROUND_DETAIL,
    ],
    [
      { type: 'text', style: { backgroundImage: 'ftp://x' } },
      '/style/backgroundImage',
      BACKGROUND_DETAIL,
    ],
    [
      { type: 'text', style: { backgroundRepeat: 'repeat-z' } },
      '/style/backgroundRepeat',
      'must be one of: repeat, repeat-x, repeat-y, no-repeat, space, round',
    ],
    [
      { type: 'text', style: { backgroundSize: 'huge' } },
      '/style/backgroundSize',
      'must be auto, cover, contain, or one or two CSS lengths or percentages (e.g. "100px 50%")',
    ],
    [
      { type: 'text', style: { backgroundPosition: 'left right' } },
      '/style/backgroundPosition',
      'must be one or two of left, right, top, bottom, center, or CSS lengths or percentages (e.g. "center top", "10px 50%")',
    ],
    [{ type: 'text', style: { opacity: 1.5 } }, '/style/opacity', 'must be a number from 0 to 1'],
    [{ type: 'text', style: { opacity: '1' } }, '/style/opacity', 'must be a number from 0 to 1'],
    [{ type: 'text', style: { opacity: -0.1 } }, '/style/opacity', 'must be a number from 0 to 1'],
    [
      { type: 'text', style: { backgroundColor: 'red' } },
      '/style/backgroundColor',
      'is not a known member',
    ],
    [{ type: 'text', data: 'hello' }, '/data', 'must be an object'],
    [{ type: 'text', data: ['hello'] }, '/data', 'must be an object'],
    [{ type: 'text', data: null }, '/data', 'must be an object'],
    [{ type: 'empty', data: { html: 'x' } }, '/data/html', 'is not a known member'],
    [{ type: 'image', data: { html: '<p>x</p>' } }, '/data/html', 'is not a known member'],
    [{ type: 'text', data: { url: 'https://example.com' } }, '/data/url', 'is not a known member'],
    [
      { type: 'text', data: { html: 5 } },
      '/data/html',
      'must be a string of at most 100000 characters',
    ],
    [
      { type: 'text', data: { html: 'x'.repeat(TEXT_HTML_MAX_LENGTH + 1) } },
      '/data/html',
      'must be a string of at most 100000 characters',
    ],
    [{ type: 'image', data: { url: 'javascript:alert(1)' } }, '/data/url', IMAGE_URL_DETAIL],
    [{ type: 'image', data: { url: '/relative.png' } }, '/data/url', IMAGE_URL_DETAIL],
    [
      { type: 'image', data: { url: '/assets/0190A6F0-7C4E-4B8A-9B1E-3F2D1C0B9A87' } },
      '/data/url',
      IMAGE_URL_DETAIL,
    ],
    [
      { type: 'video', data: { url: '/assets/0190a6f0-7c4e-4b8a-9b1e-3f2d1c0b9a87' } },
      '/data/url',
      URL_DETAIL,
    ],
    [
      { type: 'image', data: { width: -5 } },
      '/data/width',
      'must be a number of pixels (0 or more), "auto", or a CSS length or percentage such as "600px" or "50%"',
    ],
    [
      { type: 'image', data: { alt: 'a'.repeat(501) } },
      '/data/alt',
      'must be a string of at most 500 characters',
    ],
    [{ type: 'video', data: { url: 'ftp://x/movie.mp4' } }, '/data/url', URL_DETAIL],
    [
      { type: 'video', data: { provider: 'dailymotion' } },
      '/data/provider',
      'must be one of: youtube, vimeo, wistia, loom, file',
    ],
    [{ type: 'text', position: -1 }, '/position', 'must be an integer of at least 0'],
  ])('rejects %j at %s', async (body, pointer, detail) => {
    expect((await validateBody(CreateContentDto, body)).errors).toEqual([{ pointer, detail }]);
  });

  it('reports only the type when the type is invalid and data is an object', async () => {
    const result = await validateBody(CreateContentDto, { type: 'gallery', data: { images: [] } });
    expect(result.errors).toEqual([{ pointer: '/type', detail: TYPE_DETAIL }]);
  });

  it('still rejects non-object data next to an invalid type', async () => {
    const result = await validateBody(CreateContentDto, { type: 'gallery', data: 3 });
    expect(result.errors).toEqual([
      { pointer: '/type', detail: TYPE_DETAIL },
      { pointer: '/data', detail: 'must be an object' },
    ]);
  });
});

describe('UpdateContentDto', () => {
  it('requires the type even when only other members change (seed rule 2)', async () => {
    expect((await validateBody(UpdateContentDto, { style: { opacity: 0.5 } })).errors).toEqual([
      { pointer: '/type', detail: 'is required' },
    ]);
  });

  it('accepts the type with an _id, a style, data and a position', async () => {
    const body = {
      _id: 'abc',
      type: 'image',
      style: { opacity: 0 },
      data: { url: 'http://example.com/x.png' },
      position: 5,
    };
    const result = await validateBody(UpdateContentDto, body);
    expect(result.errors).toEqual([]);
    expect(result.value).toEqual(body);
  });
});

describe('URL members', () => {
  it('take the path of an uploaded asset for an image and a background, as it is', async () => {
    const path = '/assets/0190a6f0-7c4e-4b8a-9b1e-3f2d1c0b9a87';
    const result = await validateBody(CreateContentDto, {
      type: 'image',
      style: { backgroundImage: path },
      data: { url: path },
    });
    expect(result.errors).toEqual([]);
    expect(result.value?.style?.backgroundImage).toBe(path);
  });

  const BREAKOUT = 'https://e.com/a.png);background-image:url(javascript:alert(1)';
  const BREAKOUT_STORED = 'https://e.com/a.png%29;background-image:url%28javascript:alert%281%29';

  it.each([
    ['a style’s backgroundImage', { type: 'empty', style: { backgroundImage: BREAKOUT } }],
    ['an image’s url', { type: 'image', data: { url: BREAKOUT } }],
    ['a video’s url', { type: 'video', data: { url: BREAKOUT } }],
  ])('come out of validation normalised: %s', async (_member, body) => {
    for (const cls of [CreateContentDto, UpdateContentDto]) {
      const result = await validateBody(cls, body);
      expect(result.errors).toEqual([]);
      const value = result.value as {
        style?: { backgroundImage?: string };
        data?: { url?: string };
      };
      expect(value.style?.backgroundImage ?? value.data?.url).toBe(BREAKOUT_STORED);
    }
  });

  it('keep a legitimate URL with parentheses working, and a URL already normal as it is', async () => {
    const result = await validateBody(CreateContentDto, {
      type: 'image',
      style: { backgroundImage: 'https://example.com/bg.jpg' },
      data: { url: 'https://en.wikipedia.org/wiki/File:Foo_(bar).png' },
    });
    expect(result.value?.style?.backgroundImage).toBe('https://example.com/bg.jpg');
    expect((result.value?.data as ImageDataDto).url).toBe(
      'https://en.wikipedia.org/wiki/File:Foo_%28bar%29.png',
    );
  });

  it('leave "" as no background image, and refuse what has no safe form', async () => {
    expect(
      (await validateBody(CreateContentDto, { type: 'empty', style: { backgroundImage: '' } }))
        .value?.style?.backgroundImage,
    ).toBe('');
    const result = await validateBody(CreateContentDto, {
      type: 'image',
      style: { backgroundImage: 'https://a(b).com/x.png' },
      data: { url: `https://example.com/${'é'.repeat(400)}` },
    });
    expect(result.errors).toEqual([
      {
        pointer: '/style/backgroundImage',
        detail: BACKGROUND_DETAIL,
      },
      { pointer: '/data/url', detail: IMAGE_URL_DETAIL },
    ]);
  });
});

describe('TypedContentResponse', () => {
  it('narrows data by type for TypeScript clients', () => {
    const contents: TypedContentResponse[] = [
      {
        _id: 'a',
        type: 'image',
        style: DEFAULT_CONTENT_STYLE,
        data: { url: 'https://e.com/a.png' },
      },
      { _id: 'b', type: 'text', style: DEFAULT_CONTENT_STYLE, data: { html: '<p>hi</p>' } },
    ];
    const seen = contents.map((content) => {
      if (content.type === 'image') return content.data.url;
      if (content.type === 'text') {
        // @ts-expect-error a text's data has no url: the type narrowed it to the text's members
        void content.data.url;
        return content.data.html;
      }
      return undefined;
    });
    expect(seen).toEqual(['https://e.com/a.png', '<p>hi</p>']);
  });
});
