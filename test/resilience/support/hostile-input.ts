import * as fc from 'fast-check';

// Arbitraries for hostile HTTP requests to every operation of the contract. A generated request
// is a plain description (which operation, which kind of id in each path slot, headers, query,
// body): the ids and tokens it refers to are resolved when it is sent, against the layout that
// exists at that moment, so that generation does not depend on server state.

export type Level = 'project' | 'block' | 'row' | 'column' | 'content';
const LEVELS: readonly Level[] = ['project', 'block', 'row', 'column', 'content'];
const COLLECTION: Record<Level, string> = {
  project: 'projects',
  block: 'blocks',
  row: 'rows',
  column: 'columns',
  content: 'contents',
};

export type BodyKind = 'account' | Level | 'none';

export interface Operation {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fixed path (accounts), or the number of ids in the path and whether it ends in a list. */
  readonly path: string | { ids: number; list: boolean };
  readonly body: BodyKind;
  /** Whether the body is an update (members optional, `_id` allowed). */
  readonly update?: boolean;
}

function layoutOperations(level: Level, depth: number): Operation[] {
  return [
    { name: `create ${level}`, method: 'POST', path: { ids: depth - 1, list: true }, body: level },
    { name: `list ${level}s`, method: 'GET', path: { ids: depth - 1, list: true }, body: 'none' },
    { name: `retrieve ${level}`, method: 'GET', path: { ids: depth, list: false }, body: 'none' },
    {
      name: `update ${level}`,
      method: 'PUT',
      path: { ids: depth, list: false },
      body: level,
      update: true,
    },
    { name: `delete ${level}`, method: 'DELETE', path: { ids: depth, list: false }, body: 'none' },
  ];
}

/** Every operation of the contract (CONTRACT.md), accounts and the five layout resources. */
export const OPERATIONS: readonly Operation[] = [
  { name: 'sign up', method: 'POST', path: '/accounts', body: 'account' },
  { name: 'get a token', method: 'POST', path: '/accounts/auth/token', body: 'account' },
  { name: 'who am I', method: 'GET', path: '/accounts/auth/me', body: 'none' },
  ...LEVELS.flatMap((level, index) => layoutOperations(level, index + 1)),
];

// ---------------------------------------------------------------------------------------------
// Strings and JSON text

/** A string built from code units, so that unpaired surrogates and NUL occur. */
const awkwardUnits = fc.constantFrom(
  'a',
  ' ',
  '\u0000',
  '\u0007',
  '\t',
  '\n',
  '\u00e9',
  '\u202e',
  '\ufeff',
  '\ufffd',
  '\ud800',
  '\udbff',
  '\udc00',
  '\ud83d',
  '\ude00',
  '\ud83d\ude00',
  '"',
  '\\',
  '/',
  '%',
  "'",
  '<',
  '$',
);

/** Hostile strings of at most a few hundred characters (fit in a header or a path). */
export const shortHostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\udfff',
    'x\ud83d',
    '\ude00x',
    '\ud83d\ude00',
    "'; DROP TABLE contents; --",
    "' OR '1'='1",
    '1); SELECT pg_sleep(30); --',
    '$1',
    '::uuid',
    '%00',
    '%ZZ',
    '../../../etc/passwd',
    '..\\..\\boot.ini',
    '/projects',
    '{{7*7}}',
    '${jndi:ldap://x/a}',
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    'javascript:alert(1)',
    '__proto__',
    'constructor',
    'prototype',
    'NaN',
    'Infinity',
    '-0',
    '1e400',
    ' 6',
    '0x6',
    '6.0',
    'https://example.com/\u0000',
    'http://[::1',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: awkwardUnits, maxLength: 30 }),
  fc
    .tuple(
      fc.constantFrom('a', '\u00e9', '\ud83d\ude00', '<b>', '\ud800'),
      fc.constantFrom(101, 201, 257),
    )
    .map(([unit, count]) => unit.repeat(count)),
);

/** Hostile strings, also past every length limit of the contract. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: shortHostileString },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('a', '\u00e9', '\ud83d\ude00', '<b>', '\ud800'),
        fc.constantFrom(501, 2049, 10_001, 100_001),
      )
      .map(([unit, count]) => unit.repeat(count)),
  },
);

/** JSON text of a number, including ones JavaScript cannot hold exactly or at all. */
const hostileNumber: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '1e400',
    '-1e400',
    '1e-400',
    '-0',
    '0',
    '-1',
    '0.5',
    '6.000000000000001',
    '12.0',
    '13',
    '1E1',
    '32768',
    '2147483648',
    '9007199254740991',
    '9007199254740993',
    '18446744073709551616',
    '123456789012345678901234567890',
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.integer().map(String),
);

/** Deep nesting: far past any legitimate body. */
const deepJson: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(17, 64, 1000, 20_000), fc.boolean())
  .map(([depth, arrays]) =>
    arrays
      ? '['.repeat(depth) + ']'.repeat(depth)
      : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
  );

const prototypeJson: fc.Arbitrary<string> = fc.constantFrom(
  '{"__proto__":{"admin":true}}',
  '{"__proto__":null}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"prototype":{}}',
  '{"toString":1,"valueOf":"x","hasOwnProperty":null}',
);

const hostileLeaf: fc.Arbitrary<string> = fc.oneof(
  hostileString.map((s) => JSON.stringify(s)),
  hostileNumber,
  fc.constantFrom('null', 'true', 'false', '[]', '{}', '""'),
);

/** JSON text of a value a member should not hold. */
export const hostileJson: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: hostileLeaf },
  { weight: 1, arbitrary: deepJson },
  { weight: 1, arbitrary: prototypeJson },
  {
    weight: 1,
    arbitrary: fc.array(hostileLeaf, { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.tuple(hostileKey(), hostileLeaf), { maxLength: 3 })
      .map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
);

function hostileKey(known: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      '_id',
      'id',
      'owner_id',
      'projectId',
      '',
      ...known,
    ),
    hostileString,
  );
}

/** Bodies that are not JSON, or not declared as what they are. */
const malformedBody: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.constantFrom(
    '{',
    '{"title":}',
    '{"title":"x",}',
    "{'title':'x'}",
    '{"title":"x"}{"title":"y"}',
    '\ufeff{"title":"x"}',
    'null',
    '"a string"',
    '12',
    '[]',
    '[{"type":"empty"}]',
    'NaN',
    '{"a":1e400}',
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    '{"a":"\\x41"}',
    'title=x',
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
  // Invalid UTF-8: a lone continuation byte, an encoded surrogate, an overlong NUL.
  fc
    .constantFrom([0xff, 0xfe], [0xed, 0xa0, 0x80], [0xc0, 0x80], [0x80])
    .map((bytes) =>
      Buffer.concat([Buffer.from('{"title":"'), Buffer.from(bytes), Buffer.from('"}')]),
    ),
  // Just above the 1 MiB limit.
  fc.constant(`{"title":"${'a'.repeat(1024 * 1024)}"}`),
);

// ---------------------------------------------------------------------------------------------
// Valid-looking bodies: each member valid most of the time, hostile some of the time

/** Placeholders resolved when the request is sent. */
export const SELF_ID = '@@self-id@@';
export const CONTENT_ID = '@@content-id@@';
export const FOREIGN_CONTENT_ID = '@@foreign-content-id@@';

const json = <T>(arbitrary: fc.Arbitrary<T>) => arbitrary.map((value) => JSON.stringify(value));

const validText = (max: number) =>
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: Math.min(max, 40) });
const httpUrl = fc.constantFrom(
  'https://example.com/a.png',
  'http://example.com/path?q=1#f',
  'https://cdn.example.org/very/long/' + 'x'.repeat(200),
);
const contentStyle = {
  backgroundImage: json(fc.oneof(fc.constant(''), httpUrl)),
  backgroundRepeat: json(
    fc.constantFrom('repeat', 'repeat-x', 'repeat-y', 'no-repeat', 'space', 'round'),
  ),
  backgroundSize: json(fc.constantFrom('auto', 'cover', 'contain', '50%', '10px 20px', '1em auto')),
  backgroundPosition: json(fc.constantFrom('center center', 'left top', '10% 20%', 'right', '0 0')),
  opacity: json(fc.double({ min: 0, max: 1, noNaN: true })),
};
const blockStyle = {
  ...contentStyle,
  backgroundColor: json(
    fc.constantFrom('#fff', '#ffffff80', 'rgba(0, 0, 0, 0.5)', 'rgb(1,2,3)', 'red'),
  ),
};
const dataByType: Record<string, Record<string, fc.Arbitrary<string>>> = {
  empty: {},
  text: {
    html: json(
      fc.oneof(
        validText(100),
        fc.constantFrom('<p>Hi <b>there</b></p>', '<a href="https://x.y">x</a>'),
      ),
    ),
  },
  image: {
    url: json(httpUrl),
    width: json(fc.oneof(fc.constantFrom('600px', '50%', 'auto'), fc.nat({ max: 4000 }))),
    height: json(fc.oneof(fc.constantFrom('400px', '10%', 'auto'), fc.nat({ max: 4000 }))),
    alt: json(validText(100)),
  },
  video: {
    url: json(
      fc.constantFrom(
        'https://www.youtube.com/watch?v=abc',
        'https://vimeo.com/1',
        'https://example.com/v.mp4',
      ),
    ),
    provider: json(fc.constantFrom('youtube', 'vimeo', 'wistia', 'loom', 'file')),
  },
  quote: {
    options: fc.constant('{"currency":"EUR"}'),
    content: fc.constant(
      '{"fields":[{"id":"qty","label":"Qty","show":true},{"id":"price","label":"Price","show":true}],' +
        '"items":[{"id":"i1","qty":2,"price":3.5},{"id":"i2","qty":1,"price":0}]}',
    ),
  },
};

type Fields = Record<string, fc.Arbitrary<string>>;

/** `arbitrary` in `present` cases out of `present + absent`, undefined otherwise. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>, present: number, absent: number) {
  return fc.oneof(
    { weight: present, arbitrary },
    { weight: absent, arbitrary: fc.constant(undefined) },
  );
}

/**
 * JSON text of an object with some of `fields` (each valid, or now and then hostile), those in
 * `required` nearly always present, and now and then an extra member.
 */
function objectOf(fields: Fields, required: readonly string[] = []): fc.Arbitrary<string> {
  const names = Object.keys(fields);
  const members = names.map((name) =>
    sometimes(
      fc.oneof({ weight: 5, arbitrary: fields[name] }, { weight: 1, arbitrary: hostileJson }),
      required.includes(name) ? 30 : 1,
      1,
    ),
  );
  return fc
    .tuple(fc.tuple(...members), sometimes(fc.tuple(hostileKey(names), hostileJson), 1, 8))
    .map(([values, extra]) => {
      const pairs = names.flatMap((name, index) =>
        values[index] === undefined ? [] : [`${JSON.stringify(name)}:${values[index]}`],
      );
      if (extra) pairs.push(`${JSON.stringify(extra[0])}:${extra[1]}`);
      return `{${pairs.join(',')}}`;
    });
}

const position = json(
  fc.oneof(fc.nat({ max: 6 }), fc.constantFrom(1000, 2 ** 31, Number.MAX_SAFE_INTEGER)),
);

function contentBody(update: boolean, inColumn: boolean): fc.Arbitrary<string> {
  return fc.constantFrom(...Object.keys(dataByType)).chain((type) =>
    objectOf(
      {
        ...(update || inColumn
          ? { _id: json(fc.constantFrom(inColumn ? CONTENT_ID : SELF_ID, FOREIGN_CONTENT_ID)) }
          : {}),
        type: json(fc.constant(type)),
        style: objectOf(contentStyle),
        data: objectOf(dataByType[type]),
        ...(inColumn ? {} : { position }),
      },
      ['type'],
    ),
  );
}

function bodyFor(kind: BodyKind, update: boolean): fc.Arbitrary<string> {
  const self: Fields = update ? { _id: json(fc.constant(SELF_ID)) } : {};
  switch (kind) {
    case 'account':
      return objectOf(
        {
          username: json(fc.stringMatching(/^[a-z][a-z0-9._-]{2,20}$/)),
          password: json(fc.oneof(fc.constant('correct horse battery staple'), validText(256))),
        },
        ['username', 'password'],
      );
    case 'project':
      return objectOf({ ...self, title: json(validText(200)) }, update ? [] : ['title']);
    case 'block':
      return objectOf(
        { ...self, description: json(validText(500)), style: objectOf(blockStyle), position },
        update ? [] : ['description'],
      );
    case 'row':
      return objectOf({ ...self, description: json(validText(500)), position });
    case 'column':
      return objectOf(
        {
          ...self,
          size: json(fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constantFrom('1', '6', '12'))),
          contents: fc
            .array(contentBody(update, true), { maxLength: 3 })
            .map((items) => `[${items.join(',')}]`),
          position,
        },
        update ? [] : ['size'],
      );
    case 'content':
      return contentBody(update, false);
    case 'none':
      return fc.constant('{}');
  }
}

// ---------------------------------------------------------------------------------------------
// Path ids, query strings, headers

/** Which id goes into a path slot: resolved against the current layout when sent. */
export type IdChoice =
  | { kind: 'real' }
  | { kind: 'foreign' }
  | { kind: 'other-level' }
  | { kind: 'upper-case' }
  | { kind: 'uuid'; value: string }
  | { kind: 'wire'; value: string };

/** Percent-encodes every byte outside the unreserved set; unpaired surrogates as WTF-8. */
export function encodeSegment(value: string): string {
  let out = '';
  for (let index = 0; index < value.length; index++) {
    const unit = value.charCodeAt(index);
    let bytes: number[];
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < value.length) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes = [...Buffer.from(value.slice(index, index + 2), 'utf8')];
        index++;
      } else bytes = [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)];
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      bytes = [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)];
    } else if (/[A-Za-z0-9\-._~]/.test(value[index])) {
      out += value[index];
      continue;
    } else bytes = [...Buffer.from(value[index], 'utf8')];
    out += bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

const idChoice: fc.Arbitrary<IdChoice> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'foreign' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'other-level' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'upper-case' as const }) },
  { weight: 2, arbitrary: fc.uuid().map((value) => ({ kind: 'uuid' as const, value })) },
  {
    weight: 3,
    arbitrary: shortHostileString.map((value) => ({
      kind: 'wire' as const,
      value: encodeSegment(value),
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(201, 2049)
      .map((n) => ({ kind: 'wire' as const, value: 'a'.repeat(n) })),
  },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(
        '..',
        '.',
        '%2e%2e',
        '%2F',
        '%2f..%2f',
        '%00',
        '%ZZ',
        '%',
        '',
        ';',
        'a;b=c',
        '*',
        '~',
        'projects',
      )
      .map((value) => ({ kind: 'wire' as const, value })),
  },
);

/** Ids for `count` slots: all real most of the time, one replaced, or all of any kind. */
function idChoices(count: number): fc.Arbitrary<IdChoice[]> {
  const real = (): IdChoice[] => Array.from({ length: count }, () => ({ kind: 'real' }));
  if (count === 0) return fc.constant([]);
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(null).map(real) },
    {
      weight: 3,
      arbitrary: fc.tuple(fc.nat({ max: count - 1 }), idChoice).map(([slot, choice]) => {
        const ids = real();
        ids[slot] = choice;
        return ids;
      }),
    },
    {
      weight: 1,
      arbitrary: fc.array(fc.oneof(fc.constant<IdChoice>({ kind: 'real' }), idChoice), {
        minLength: count,
        maxLength: count,
      }),
    },
  );
}

const queryString: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '__proto__[admin]=1',
        'constructor[prototype][admin]=1',
        '__proto__.admin=1',
        'a[]=1&a[]=2',
        'a[0]=1&a[1000000]=2',
        '%00=%00',
        'a=%ZZ',
        'size=13',
        'position=-1',
        'limit=1e400',
        '=',
        '&&',
        'a=b=c',
        `a=${'x'.repeat(8000)}`,
      ),
      fc
        .tuple(shortHostileString, shortHostileString)
        .map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`),
    ),
    { minLength: 1, maxLength: 3 },
  )
  .map((parts) => `?${parts.join('&')}`);

/** Authorization: resolved when sent (`valid` and `foreign` name the tokens of the run). */
export type AuthChoice =
  { kind: 'valid' } | { kind: 'foreign' } | { kind: 'none' } | { kind: 'raw'; value: string };

const authChoice: fc.Arbitrary<AuthChoice> = fc.oneof(
  { weight: 12, arbitrary: fc.constant({ kind: 'valid' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'foreign' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          'Bearer  ',
          'bearer x',
          'Basic dXNlcjpwYXNzd29yZA==',
          'Bearer a b',
          `Bearer ${'a'.repeat(600)}`,
          `Bearer ${'A'.repeat(43)}=`,
          "Bearer ' OR 1=1 --",
          'Bearer ../../etc/passwd',
          'Bearer %00',
        ),
        shortHostileString.map((value) => `Bearer ${value}`),
      )
      .map((value) => ({ kind: 'raw' as const, value })),
  },
);

const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 20, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=latin1',
      'application/json;charset=utf-16',
      'application/json, text/plain',
      'application/jsonx',
      'application/vnd.api+json',
      'text/plain',
      'text/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      '*/*',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** A header value Node will send: UTF-8 bytes as latin1, control characters dropped. */
export function headerValue(value: string): string {
  return [...Buffer.from(value, 'utf8').toString('latin1')]
    .filter((char) => char === '\t' || (char >= ' ' && char !== '\u007f'))
    .join('');
}

const extraHeaders: fc.Arbitrary<[string, string][]> = fc.array(
  fc.tuple(
    fc.constantFrom(
      'x-fuzz',
      'accept',
      'accept-language',
      'accept-encoding',
      'origin',
      'referer',
      'cookie',
      'x-forwarded-for',
      'x-forwarded-proto',
      'x-request-id',
      'x-http-method-override',
      'if-none-match',
      'if-modified-since',
      'range',
    ),
    fc
      .oneof(
        { weight: 12, arbitrary: shortHostileString },
        {
          weight: 6,
          arbitrary: fc.constantFrom(
            '*/*',
            'application/problem+json',
            'gzip, br',
            'null',
            'DELETE',
          ),
        },
        // Near and past Node's 16 KiB limit for a request head.
        { weight: 1, arbitrary: fc.constantFrom('x'.repeat(8000), 'x'.repeat(20_000)) },
      )
      .map(headerValue),
  ),
  { maxLength: 3 },
);

/** One generated request, printed compactly when fast-check reports a counterexample. */
export class HostileRequest {
  constructor(
    readonly operation: Operation,
    readonly ids: IdChoice[],
    readonly query: string,
    readonly auth: AuthChoice,
    readonly contentType: string | undefined,
    readonly headers: [string, string][],
    readonly body: string | Buffer | undefined,
  ) {}

  [fc.toStringMethod](): string {
    const short = (value: string) =>
      value.length > 200
        ? `${JSON.stringify(value.slice(0, 200))}… (${value.length} chars)`
        : JSON.stringify(value);
    const body =
      this.body === undefined
        ? 'none'
        : Buffer.isBuffer(this.body)
          ? `bytes ${this.body.toString('hex').slice(0, 200)} (${this.body.length} bytes)`
          : short(this.body);
    const auth = this.auth.kind === 'raw' ? `raw ${short(this.auth.value)}` : this.auth.kind;
    return [
      `${this.operation.method} (${this.operation.name})`,
      `ids=[${this.ids.map((id) => ('value' in id ? `${id.kind} ${short(id.value)}` : id.kind)).join(', ')}]`,
      `query=${short(this.query)}`,
      `auth=${auth}`,
      `content-type=${JSON.stringify(this.contentType)}`,
      `headers=[${this.headers.map(([name, value]) => `${name}: ${short(value)}`).join(', ')}]`,
      `body=${body}`,
    ].join(' ');
  }
}

function idCount(operation: Operation): number {
  return typeof operation.path === 'string' ? 0 : operation.path.ids;
}

export const hostileRequest: fc.Arbitrary<HostileRequest> = fc
  .constantFrom(...OPERATIONS)
  .chain((operation) => {
    const writes = operation.method === 'POST' || operation.method === 'PUT';
    const body: fc.Arbitrary<string | Buffer | undefined> = writes
      ? fc.oneof(
          { weight: 10, arbitrary: bodyFor(operation.body, operation.update === true) },
          { weight: 2, arbitrary: hostileJson },
          { weight: 2, arbitrary: malformedBody },
          { weight: 1, arbitrary: fc.constant(undefined) },
        )
      : fc.oneof(
          { weight: 8, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: hostileJson },
          { weight: 1, arbitrary: malformedBody },
        );
    return fc
      .tuple(
        idChoices(idCount(operation)),
        sometimes(queryString, 1, 4).map((query) => query ?? ''),
        authChoice,
        contentType,
        extraHeaders,
        body,
      )
      .map(
        ([ids, query, auth, type, headers, payload]) =>
          new HostileRequest(operation, ids, query, auth, type, headers, payload),
      );
  });

/** The path of an operation, from the ids chosen for each slot. */
export function pathOf(operation: Operation, ids: readonly string[]): string {
  if (typeof operation.path === 'string') return operation.path;
  const { list } = operation.path;
  const segments: string[] = [];
  ids.forEach((id, index) => segments.push(COLLECTION[LEVELS[index]], id));
  if (list) segments.push(COLLECTION[LEVELS[ids.length]]);
  return `/${segments.join('/')}`;
}

export { LEVELS };
