import { sanitizeTextHtml } from '../../apps/api/src/layout/content/html-sanitizer';
import { inferVideoProvider } from '../../libs/contracts/src/content/video-provider';
import { type FieldError } from './problems';

// The create-content body, checked by hand against the contract's rules (types, members per
// type, CSS values, URLs, quote tables), then completed as the service completes it: all five
// style members, sanitised text HTML (the service's own sanitizer, so the stored HTML is the
// same), a video provider inferred from its URL. What the contract requires costs the baseline
// too; only the framework around it is left out.

export interface ContentWrite {
  type: string;
  style: Record<string, unknown>;
  data: Record<string, unknown>;
  position: number | undefined;
}

type Json = Record<string, unknown>;

const TYPES = new Set(['empty', 'text', 'image', 'video', 'quote']);
const REPEATS = new Set(['repeat', 'repeat-x', 'repeat-y', 'no-repeat', 'space', 'round']);
const PROVIDERS = new Set(['youtube', 'vimeo', 'wistia', 'loom', 'file']);
const DEFAULT_STYLE = {
  backgroundImage: '',
  backgroundRepeat: 'no-repeat',
  backgroundSize: 'cover',
  backgroundPosition: 'center center',
  opacity: 1,
};
const UNITS = 'px|em|rem|%|vw|vh|vmin|vmax|cm|mm|in|pt|pc|ex|ch';
const LENGTH = new RegExp(`^(?:0|(?:\\d+(?:\\.\\d+)?|\\.\\d+)(?:${UNITS}))$`, 'i');
const OFFSET = new RegExp(`^[+-]?(?:0|(?:\\d+(?:\\.\\d+)?|\\.\\d+)(?:${UNITS}))$`, 'i');
const KEYWORDS = new Set(['left', 'right', 'top', 'bottom', 'center']);

export function parseContentBody(
  body: unknown,
): { ok: true; value: ContentWrite } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const fail = (pointer: string, detail: string) => errors.push({ pointer, detail });
  if (!isObject(body)) return { ok: false, errors: [{ pointer: '', detail: 'must be an object' }] };
  onlyKnown(body, ['type', 'style', 'data', 'position'], '', fail);

  const type = body.type;
  if (typeof type !== 'string' || !TYPES.has(type)) fail('/type', 'must be a content type');
  if (
    body.position !== undefined &&
    !(Number.isSafeInteger(body.position) && Number(body.position) >= 0)
  ) {
    fail('/position', 'must be an integer of at least 0');
  }
  if (body.style !== undefined) checkStyle(body.style, fail);
  if (body.data !== undefined && typeof type === 'string' && TYPES.has(type)) {
    checkData(type, body.data, fail);
  }
  if (errors.length > 0) return { ok: false, errors };

  const style = { ...DEFAULT_STYLE, ...(body.style as Json | undefined) };
  return {
    ok: true,
    value: {
      type: type as string,
      style,
      data: completeData(type as string, (body.data as Json | undefined) ?? {}),
      position: body.position as number | undefined,
    },
  };
}

function completeData(type: string, data: Json): Json {
  if (type === 'text' && typeof data.html === 'string') {
    return { ...data, html: sanitizeTextHtml(data.html) };
  }
  if (type === 'video' && typeof data.url === 'string' && data.provider === undefined) {
    return { ...data, provider: inferVideoProvider(data.url) };
  }
  return data;
}

type Fail = (pointer: string, detail: string) => void;

function checkStyle(style: unknown, fail: Fail) {
  if (!isObject(style)) return fail('/style', 'must be an object');
  onlyKnown(style, Object.keys(DEFAULT_STYLE), '/style', fail);
  const { backgroundImage, backgroundRepeat, backgroundSize, backgroundPosition, opacity } = style;
  if (backgroundImage !== undefined && backgroundImage !== '' && !isHttpUrl(backgroundImage)) {
    fail('/style/backgroundImage', 'must be "" or an http(s) URL');
  }
  if (backgroundRepeat !== undefined && !REPEATS.has(backgroundRepeat as string)) {
    fail('/style/backgroundRepeat', 'must be a background-repeat keyword');
  }
  if (backgroundSize !== undefined && !isBackgroundSize(backgroundSize)) {
    fail('/style/backgroundSize', 'must be auto, cover, contain or one or two lengths');
  }
  if (backgroundPosition !== undefined && !isBackgroundPosition(backgroundPosition)) {
    fail('/style/backgroundPosition', 'must be one or two keywords or lengths');
  }
  if (opacity !== undefined && !(typeof opacity === 'number' && opacity >= 0 && opacity <= 1)) {
    fail('/style/opacity', 'must be a number from 0 to 1');
  }
}

function checkData(type: string, data: unknown, fail: Fail) {
  if (!isObject(data)) return fail('/data', 'must be an object');
  switch (type) {
    case 'empty':
      return onlyKnown(data, [], '/data', fail);
    case 'text':
      onlyKnown(data, ['html'], '/data', fail);
      if (data.html !== undefined && !isString(data.html, 0, 100_000)) {
        fail('/data/html', 'must be a string of at most 100000 characters');
      }
      return;
    case 'image':
      onlyKnown(data, ['url', 'width', 'height', 'alt'], '/data', fail);
      if (data.url !== undefined && !isHttpUrl(data.url))
        fail('/data/url', 'must be an http(s) URL');
      for (const member of ['width', 'height'] as const) {
        if (data[member] !== undefined && !isDimension(data[member])) {
          fail(`/data/${member}`, 'must be a number of pixels, auto or a length');
        }
      }
      if (data.alt !== undefined && !isString(data.alt, 0, 500))
        fail('/data/alt', 'must be a string');
      return;
    case 'video':
      onlyKnown(data, ['url', 'provider'], '/data', fail);
      if (data.url !== undefined && !isHttpUrl(data.url))
        fail('/data/url', 'must be an http(s) URL');
      if (data.provider !== undefined && !PROVIDERS.has(data.provider as string)) {
        fail('/data/provider', 'must be a known provider');
      }
      return;
    case 'quote':
      return checkQuote(data, fail);
  }
}

function checkQuote(data: Json, fail: Fail) {
  onlyKnown(data, ['options', 'content'], '/data', fail);
  if (data.options !== undefined) {
    if (!isObject(data.options)) return fail('/data/options', 'must be an object');
    onlyKnown(data.options, ['currency'], '/data/options', fail);
    const { currency } = data.options;
    if (currency !== undefined && !(typeof currency === 'string' && /^[A-Z]{3}$/.test(currency))) {
      fail('/data/options/currency', 'must be an ISO 4217 code');
    }
  }
  if (data.content === undefined) return;
  if (!isObject(data.content)) return fail('/data/content', 'must be an object');
  const { fields, items } = data.content;
  onlyKnown(data.content, ['fields', 'items'], '/data/content', fail);
  let fieldIds: Set<string> | undefined;
  if (fields !== undefined) {
    if (!Array.isArray(fields) || fields.length > 20) {
      return fail('/data/content/fields', 'must be an array of at most 20 objects');
    }
    fieldIds = new Set();
    fields.forEach((field: unknown, index) => {
      const at = `/data/content/fields/${index}`;
      if (!isObject(field)) return fail(at, 'must be an object');
      onlyKnown(field, ['id', 'label', 'show'], at, fail);
      if (!isString(field.id, 1, 100)) fail(`${at}/id`, 'must be a string of 1 to 100 characters');
      else if (fieldIds!.has(field.id as string)) fail(`${at}/id`, 'is a repeated id');
      else fieldIds!.add(field.id as string);
      if (field.label !== undefined && !isString(field.label, 0, 200))
        fail(`${at}/label`, 'must be a string');
      if (field.show !== undefined && typeof field.show !== 'boolean')
        fail(`${at}/show`, 'must be a boolean');
    });
  }
  if (items === undefined) return;
  if (!Array.isArray(items) || items.length > 1000) {
    return fail('/data/content/items', 'must be an array of at most 1000 objects');
  }
  items.forEach((item: unknown, index) => {
    const at = `/data/content/items/${index}`;
    if (!isObject(item)) return fail(at, 'must be an object');
    if (!isString(item.id, 1, 100)) fail(`${at}/id`, 'must be a string of 1 to 100 characters');
    for (const [key, value] of Object.entries(item)) {
      if (key === 'id') continue;
      if (fieldIds && !fieldIds.has(key)) fail(`${at}/${key}`, 'is not the id of a field');
      else if (
        (key === 'quantity' || key === 'price') &&
        !(typeof value === 'number' && value >= 0)
      ) {
        fail(`${at}/${key}`, 'must be a number of at least 0');
      } else if (!(
        isString(value, 0, 10_000) ||
        typeof value === 'number' ||
        typeof value === 'boolean'
      )) {
        fail(`${at}/${key}`, 'must be a string, a number or a boolean');
      }
    }
  });
}

function onlyKnown(value: Json, known: readonly string[], at: string, fail: Fail) {
  for (const key of Object.keys(value))
    if (!known.includes(key)) fail(`${at}/${key}`, 'is not a known member');
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isString(value: unknown, min: number, max: number): boolean {
  return typeof value === 'string' && value.length >= min && value.length <= max;
}

function isHttpUrl(value: unknown): boolean {
  if (
    typeof value !== 'string' ||
    value.length > 2048 ||
    !/^https?:\/\/[^/\\\s]\S*$/i.test(value)
  ) {
    return false;
  }
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

function tokens(value: unknown): string[] | null {
  if (typeof value !== 'string' || value.length > 100) return null;
  const trimmed = value.trim().toLowerCase();
  const parts = trimmed === '' ? [] : trimmed.split(/\s+/);
  return parts.length === 0 || parts.length > 2 ? null : parts;
}

function isBackgroundSize(value: unknown): boolean {
  const parts = tokens(value);
  if (parts === null) return false;
  if (parts.length === 1 && (parts[0] === 'cover' || parts[0] === 'contain')) return true;
  return parts.every((part) => part === 'auto' || LENGTH.test(part));
}

function isBackgroundPosition(value: unknown): boolean {
  const parts = tokens(value);
  if (parts === null || !parts.every((part) => KEYWORDS.has(part) || OFFSET.test(part)))
    return false;
  if (parts.length === 1) return true;
  const [first, second] = parts;
  const horizontal = (part: string) => part === 'left' || part === 'right';
  const vertical = (part: string) => part === 'top' || part === 'bottom';
  return (
    !(horizontal(first) && horizontal(second)) &&
    !(vertical(first) && vertical(second)) &&
    !(vertical(first) && !KEYWORDS.has(second)) &&
    !(horizontal(second) && !KEYWORDS.has(first))
  );
}

function isDimension(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0;
  return (
    typeof value === 'string' &&
    value.length <= 100 &&
    (value.toLowerCase() === 'auto' || LENGTH.test(value))
  );
}
