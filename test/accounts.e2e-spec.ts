import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { postFrom, requestFrom } from './support/from-address';
import { Api, type Response, startTestApp } from './support/test-app';

const password = 'a long enough password';
const unique = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;

/** The fullwidth form (U+FF01..U+FF5E) of printable ASCII: `alice` becomes `ａｌｉｃｅ`. */
const fullwidth = (ascii: string) =>
  ascii.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

describe('accounts and tokens', () => {
  let app: NestFastifyApplication;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
  });
  afterAll(() => app.close());

  it('signs up with 201 and exactly _id, username, createdAt', async () => {
    const username = unique('Alice');
    const response = await api.post('/accounts', { username, password });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      _id: expect.any(String),
      username,
      createdAt: expect.any(String),
    });
    expect(new Date(response.body.createdAt).toISOString()).toBe(response.body.createdAt);
  });

  it('refuses a taken username regardless of case with 409', async () => {
    const username = unique('bob');
    expect((await api.post('/accounts', { username, password })).status).toBe(201);
    const response = await api.post('/accounts', { username: username.toUpperCase(), password });
    expect(response.status).toBe(409);
    expect(response.body.type).toBe('/problems/username-taken');
  });

  it('lets exactly one of two simultaneous sign-ups for one name win', async () => {
    const username = unique('race');
    const responses = await Promise.all([
      api.post('/accounts', { username, password }),
      api.post('/accounts', { username, password }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it.each([
    [{ username: 'ab', password }, '/username'],
    [{ username: 'x'.repeat(255), password }, '/username'],
    [{ username: unique('c'), password: 'short' }, '/password'],
    [{ username: unique('c'), password: 'p'.repeat(257) }, '/password'],
    [{ username: unique('c') }, '/password'],
    [{ username: unique('c'), password, admin: true }, '/admin'],
  ])('rejects sign-up %j with 400 at %s', async (body, pointer) => {
    const response = await api.post('/accounts', body);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it('issues a bearer token that identifies the account', async () => {
    const username = unique('carol');
    const account = (await api.post('/accounts', { username, password })).body;
    const response = await api.post('/accounts/auth/token', {
      username: username.toUpperCase(),
      password,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      token: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: 3600,
    });
    const me = await api.get('/accounts/auth/me', { token: response.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ _id: account._id, username });
    // A private read a browser revalidates: a strong tag, 304 while it stays the same.
    const etag = me.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const head = await api.request('HEAD', '/accounts/auth/me', { token: response.body.token });
    expect([head.status, head.headers.etag]).toEqual([200, etag]);
    const again = await api.get('/accounts/auth/me', {
      token: response.body.token,
      headers: { 'if-none-match': etag },
    });
    expect([again.status, again.headers.etag, again.text]).toEqual([304, etag, '']);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    const other = (await api.newAccount('me-other')).token;
    const theirs = await api.get('/accounts/auth/me', {
      token: other,
      headers: { 'if-none-match': etag },
    });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.etag).not.toBe(etag);
  });

  it('answers a wrong password and an unknown username with the same 401', async () => {
    const username = unique('dave');
    await api.post('/accounts', { username, password });
    const wrongPassword = await api.post('/accounts/auth/token', {
      username,
      password: 'not the password',
    });
    const unknownUser = await api.post('/accounts/auth/token', {
      username: unique('nobody'),
      password,
    });
    expect(wrongPassword.status).toBe(401);
    expect(unknownUser.status).toBe(401);
    // RFC 9110: every 401 carries a challenge; the scheme of the tokens this operation issues.
    expect(wrongPassword.headers['www-authenticate']).toBe('Bearer realm="layout"');
    expect(unknownUser.headers['www-authenticate']).toBe('Bearer realm="layout"');
    const { instance: _a, ...first } = wrongPassword.body;
    const { instance: _b, ...second } = unknownUser.body;
    expect(first).toEqual(second);
    expect(first.type).toBe('/problems/invalid-credentials');
  });

  it('refuses an expired token with 401 invalid_token', async () => {
    const { token, id } = await api.newAccount();
    const client = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(
        `UPDATE access_tokens SET expires_at = now() - interval '1 second' WHERE account_id = $1`,
        [id],
      );
    } finally {
      await client.end();
    }
    const response = await api.get('/accounts/auth/me', { token });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('stores neither the password nor the token in clear', async () => {
    const username = unique('frank');
    const secret = 'a very secret password';
    await api.post('/accounts', { username, password: secret });
    const { token } = (await api.post('/accounts/auth/token', { username, password: secret })).body;
    const client = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT a.password_hash, t.token_hash FROM accounts a JOIN access_tokens t ON t.account_id = a.id WHERE a.username = $1`,
        [username],
      );
      expect(rows[0].password_hash).toMatch(/^scrypt\$/);
      expect(rows[0].password_hash).not.toContain(secret);
      expect(rows[0].token_hash).not.toBe(token);
    } finally {
      await client.end();
    }
  });
});

describe('accounts with sign-up switched off', () => {
  it('answers sign-up with 404', async () => {
    const app = await startTestApp({ SIGNUP_ENABLED: 'false' });
    try {
      const response = await new Api(app).post('/accounts', { username: unique('gina'), password });
      expect(response.status).toBe(404);
      expect(response.body.type).toBe('/problems/not-found');
    } finally {
      await app.close();
    }
  });
});

describe('usernames (PRECIS UsernameCaseMapped, RFC 8265)', () => {
  let app: NestFastifyApplication;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
  });
  afterAll(() => app.close());

  it('takes " alice", "ALICE" and fullwidth "ａｌｉｃｅ" for alice: 409 on sign-up, a token for her account', async () => {
    const alice = unique('alice');
    const created = await api.post('/accounts', { username: alice, password });
    expect(created.status).toBe(201);
    const variants = [
      ` ${alice}`,
      alice.toUpperCase(),
      fullwidth(alice),
      `\u3000${fullwidth(alice.toUpperCase())}\t`,
    ];
    for (const username of variants) {
      const signUp = await api.post('/accounts', { username, password });
      expect(signUp.status).toBe(409);
      expect(signUp.body.type).toBe('/problems/username-taken');

      const token = await api.post('/accounts/auth/token', { username, password });
      expect(token.status).toBe(200);
      const me = await api.get('/accounts/auth/me', { token: token.body.token });
      expect(me.body).toEqual({ _id: created.body._id, username: alice });
    }
  });

  it('keeps the name trimmed and in NFKC, with its case', async () => {
    const name = unique('Zoe');
    const response = await api.post('/accounts', { username: ` ${fullwidth(name)}  `, password });
    expect(response.status).toBe(201);
    expect(response.body.username).toBe(name);
  });

  it.each([
    ['a space inside', 'al ice'],
    ['a no-break space inside', 'al\u00a0ice'],
    ['a control character', 'alice\u0007'],
    ['a zero-width space', 'ali\u200bce'],
    ['fewer than 3 characters once trimmed', '  ab  '],
  ])('refuses a username with %s: 400 at /username', async (_what, username) => {
    const response = await api.post('/accounts', {
      username: username.replace('alice', unique('alice')),
      password,
    });
    expect(response.status).toBe(400);
    expect(response.body.type).toBe('/problems/validation');
    expect(response.body.errors).toEqual([{ pointer: '/username', detail: expect.any(String) }]);
  });

  it('re-keys the accounts of before the rule, so that their owners sign in as they type (migration)', async () => {
    const client = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await client.connect();
    try {
      /** An account as the service stored it before: the name as typed, NFC and lower case. */
      const legacyAccount = async (typed: string, secret = password) => {
        const created = await api.post('/accounts', {
          username: unique('placeholder'),
          password: secret,
        });
        expect(created.status).toBe(201);
        await client.query('UPDATE accounts SET username = $2, username_key = $3 WHERE id = $1', [
          created.body._id,
          typed,
          typed.normalize('NFC').toLowerCase(),
        ]);
        return created.body._id as string;
      };
      const keyOf = async (id: string) =>
        (await client.query('SELECT username_key FROM accounts WHERE id = $1', [id])).rows[0]
          .username_key as string;

      const spaced = unique('spaced');
      const spacedId = await legacyAccount(` ${spaced.toUpperCase()}`);
      const wide = unique('wide');
      const wideId = await legacyAccount(fullwidth(wide.toUpperCase()));
      const greek = `${unique('greek')}-\u039f\u0394\u039f\u03a3`; // ends in a final sigma
      const greekId = await legacyAccount(greek);
      // Two accounts whose names become one: the one already holding the new key keeps it.
      const twin = unique('twin');
      const twinOlderId = await legacyAccount(` ${twin}`);
      const twinNewer = await api.post('/accounts', {
        username: twin,
        password: 'the twin password',
      });
      expect(twinNewer.status).toBe(201);
      // Neither holds it: the older one gets it.
      const trio = unique('trio');
      const trioOlderId = await legacyAccount(`${trio}\u00a0`);
      const trioNewerId = await legacyAccount(fullwidth(trio));

      await client.query('BEGIN');
      await client.query(readFileSync(migrationFile('precis_usernames'), 'utf8'));
      await client.query('COMMIT');

      expect(await keyOf(spacedId)).toBe(spaced);
      expect(await keyOf(wideId)).toBe(wide);
      expect(await keyOf(greekId)).toBe(greek.toLowerCase());
      expect(await keyOf(twinOlderId)).toBe(` ${twin}`);
      expect(await keyOf(twinNewer.body._id)).toBe(twin);
      expect(await keyOf(trioOlderId)).toBe(trio);
      expect(await keyOf(trioNewerId)).toBe(fullwidth(trio));

      for (const [typed, id] of [
        [spaced, spacedId],
        [` ${spaced.toUpperCase()}`, spacedId],
        [fullwidth(wide), wideId],
        [wide.toUpperCase(), wideId],
        [greek.toUpperCase(), greekId],
        [trio, trioOlderId],
      ]) {
        const token = await api.post('/accounts/auth/token', { username: typed, password });
        expect(token.status).toBe(200);
        const me = await api.get('/accounts/auth/me', { token: token.body.token });
        expect(me.body._id).toBe(id);
      }
      const twinToken = await api.post('/accounts/auth/token', {
        username: ` ${twin}`,
        password: 'the twin password',
      });
      expect(twinToken.status).toBe(200);
      expect((await api.get('/accounts/auth/me', { token: twinToken.body.token })).body._id).toBe(
        twinNewer.body._id,
      );
      // The names are taken as the rule sees them.
      expect((await api.post('/accounts', { username: spaced, password })).status).toBe(409);
    } finally {
      await client.end();
    }
  });
});

describe('failed sign-ins', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let now: number;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
  });
  afterAll(() => app.close());

  // The server runs in this process: its clock is this one, stopped, and moved on by the tests.
  beforeEach(() => {
    now = Date.now();
    jest.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => jest.restoreAllMocks());

  const token = (from: string, username: string, secret: string) =>
    postFrom(app, from, '/accounts/auth/token', { username, password: secret });

  function expectWait(response: Response, seconds: number) {
    expect(response.status).toBe(429);
    expect(response.body.type).toBe('/problems/rate-limited');
    expect(response.headers['retry-after']).toBe(String(seconds));
    expect(response.headers['www-authenticate']).toBeUndefined();
  }

  it('makes an address that keeps failing for one username wait, longer each time; the owner signs in from elsewhere', async () => {
    const attacker = '127.0.0.2';
    const victim = unique('victim');
    const account = await api.post('/accounts', { username: victim, password });

    for (let i = 0; i < 5; i += 1) {
      expect((await token(attacker, victim, `guess number ${i}`)).status).toBe(401);
    }
    // Past the free failures every failure imposes a wait, twice as long as the one before;
    // until it has passed, even the right password is refused.
    for (const seconds of [1, 2, 4, 8]) {
      expect((await token(attacker, victim, `guess after ${seconds}`)).status).toBe(401);
      expectWait(await token(attacker, victim, password), seconds);
      now += seconds * 1000 - 1;
      expectWait(await token(attacker, victim, password), 1);
      now += 1;
    }

    expect((await token(attacker, victim, 'one more guess')).status).toBe(401);
    expectWait(await token(attacker, victim.toUpperCase(), password), 16);

    // The owner, elsewhere, is not held back by any of it, nor is the attacker's own account.
    const owner = await api.post('/accounts/auth/token', { username: victim, password });
    expect(owner.status).toBe(200);
    const me = await api.get('/accounts/auth/me', { token: owner.body.token });
    expect(me.body._id).toBe(account.body._id);

    const own = unique('own');
    await api.post('/accounts', { username: own, password });
    expect((await token(attacker, own, password)).status).toBe(200);

    // Once the wait is over the right password works there too, and clears the count.
    now += 16 * 1000;
    expect((await token(attacker, victim, password)).status).toBe(200);
    expect((await token(attacker, victim, 'a fresh mistake')).status).toBe(401);
    expect((await token(attacker, victim, password)).status).toBe(200);
  });

  it('makes one address that sprays guesses over many usernames wait, for every username', async () => {
    const sprayer = '127.0.0.3';
    for (let i = 0; i < 20; i += 1) {
      expect((await token(sprayer, unique(`target-${i}`), 'Summer2026!')).status).toBe(401);
    }
    const someone = unique('someone');
    await api.post('/accounts', { username: someone, password });
    expect((await token(sprayer, unique('target-20'), 'Summer2026!')).status).toBe(401);
    expectWait(await token(sprayer, someone, password), 1);
    now += 1000;
    expect((await token(sprayer, unique('target-21'), 'Summer2026!')).status).toBe(401);
    expectWait(await token(sprayer, someone, password), 2);

    // Another address is not concerned.
    expect((await token('127.0.0.4', someone, password)).status).toBe(200);
  });
});

describe('one username guessed from many addresses', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let now: number;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
  });
  afterAll(() => app.close());

  // The server runs in this process: its clock is this one, stopped, so that no wait runs out
  // while the guesses go on, however slowly this machine sends them.
  beforeEach(() => {
    now = Date.now();
    jest.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => jest.restoreAllMocks());

  const signIn = (from: string, username: string, secret: string) =>
    postFrom(app, from, '/accounts/auth/token', { username, password: secret });
  // 20 addresses that never failed for anything before: 127.0.1.1 to 127.0.1.20.
  const guessers = Array.from({ length: 20 }, (_, i) => `127.0.1.${i + 1}`);

  it('slows 6 guesses from each of 20 addresses to a handful, while the owner still gets in', async () => {
    const victim = unique('spread');
    expect((await api.post('/accounts', { username: victim, password })).status).toBe(201);
    // The owner has signed in from 127.0.0.1 before.
    const home = await signIn('127.0.0.1', victim, password);
    expect(home.status).toBe(200);

    const answers: Response[] = [];
    for (let round = 0; round < 6; round += 1) {
      for (const guesser of guessers) {
        answers.push(await signIn(guesser, victim, `guess ${round} from ${guesser}`));
      }
    }
    const statuses = answers.map((answer) => answer.status);
    // Each address stays under its own limits (6 failures for one name, 6 for any): without a
    // count per username over all addresses, these were 120 × 401.
    const checked = statuses.indexOf(429);
    expect(checked).toBeGreaterThan(0);
    // The username's free failures (10, one of them the owner's first sign-in) and the one that
    // imposes the first wait were checked; everything after waits.
    expect(checked).toBeLessThanOrEqual(11);
    expect(statuses.slice(0, checked)).toEqual(Array(checked).fill(401));
    expect(statuses.slice(checked)).toEqual(Array(120 - checked).fill(429));
    for (const refused of answers.slice(checked)) {
      expect(refused.body.type).toBe('/problems/rate-limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.body.detail).toMatch(/for this username/);
    }

    // Even the right password waits at an address the account does not know...
    const stranger = await signIn('127.0.2.1', victim, password);
    expect(stranger.status).toBe(429);
    // ...but its owner signs in where he did before,
    const owner = await signIn('127.0.0.1', victim, password);
    expect(owner.status).toBe(200);
    // and a request that carries his token gets in from anywhere (here: a password change).
    const changed = await requestFrom(app, '127.0.2.1', '/accounts/auth/me/password', {
      method: 'PUT',
      token: owner.body.token,
      body: { currentPassword: password, newPassword: 'a fresh long password' },
    });
    expect(changed.status).toBe(204);
    // Its attempts do not count before the check, so other guesses still wait as long.
    expect((await signIn(guessers[0], victim, 'one more guess')).status).toBe(429);
  });
});

/** The migration.sql of the migration whose folder name ends in `_<name>`. */
function migrationFile(name: string): string {
  const directory = join(process.cwd(), 'prisma', 'migrations');
  const folder = readdirSync(directory).find((entry) => entry.endsWith(`_${name}`));
  if (!folder) throw new Error(`no migration named ${name} in ${directory}`);
  return join(directory, folder, 'migration.sql');
}
