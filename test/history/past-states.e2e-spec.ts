import { jest } from '@jest/globals';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { Api, createLayout, type Response, startTestApp } from '../support/test-app';

/** The history statements (named `history.…`) that `request` sent, and its answer. */
async function historyStatementsOf(
  request: () => Promise<Response>,
): Promise<{ answer: Response; statements: string[] }> {
  const query = jest.spyOn(Client.prototype, 'query');
  try {
    const answer = await request();
    const statements = query.mock.calls
      .map(([config]) => (config as { name?: unknown }).name)
      .filter((name): name is string => typeof name === 'string' && name.startsWith('history.'));
    return { answer, statements };
  } finally {
    query.mockRestore();
  }
}

/**
 * Issue 20 and the contract's "Conditional requests": a past state never changes while its
 * revision is kept, so a read naming its tag answers 304 from the small check that it is kept,
 * and a state this instance built once is served again after that check; neither outlives the
 * revision's retention or crosses to another account.
 */
describe('past states', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    // Four revisions are kept: a layout makes four, and two more writes drop the first two.
    app = await startTestApp({ HISTORY_REVISIONS: '4' });
    api = new Api(app);
    ({ token } = await api.newAccount('past-states'));
  });
  afterAll(() => app.close());

  const ifNoneMatch = (tag: string) => ({ token, headers: { 'if-none-match': tag } });

  it('answers 304 to a past state’s tag from the check alone, without building the state', async () => {
    // Not read before on this instance: a tag is that of the state's revision, known already.
    const { project } = await createLayout(api, token);
    for (const tag of ['"r2"', 'W/"r2"', '"r9", "r2"', '*']) {
      const { answer, statements } = await historyStatementsOf(() =>
        api.get(`${project}/revisions/2`, ifNoneMatch(tag)),
      );
      expect({ tag, status: answer.status, etag: answer.headers.etag }).toEqual({
        tag,
        status: 304,
        etag: '"r2"',
      });
      expect({ tag, statements }).toEqual({ tag, statements: ['history.past-revision'] });
    }
    const past = await api.get(`${project}/revisions/2`, { token });
    expect(past.status).toBe(200);
    expect(past.headers.etag).toBe('"r2"');
    // Another revision's tag is no match: the state is sent.
    const other = await api.get(`${project}/revisions/2`, ifNoneMatch('"r3"'));
    expect(other.status).toBe(200);
    expect(other.text).toBe(past.text);
  });

  it('serves a past state it built again, byte for byte, after the check that it is kept', async () => {
    const { project } = await createLayout(api, token);
    const first = await historyStatementsOf(() => api.get(`${project}/revisions/3`, { token }));
    expect(first.answer.status).toBe(200);
    expect(first.statements).toEqual(['history.past-state']);
    const again = await historyStatementsOf(() => api.get(`${project}/revisions/3`, { token }));
    expect(again.answer.status).toBe(200);
    expect(again.statements).toEqual(['history.past-revision']);
    expect(again.answer.text).toBe(first.answer.text);
    expect(again.answer.headers.etag).toBe('"r3"');
    // A HEAD answers as the GET does, from what was kept.
    const head = await api.request('HEAD', `${project}/revisions/3`, { token });
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe('"r3"');
  });

  it('answers 404 to a kept or tagged past state once its revision is gone, and to other accounts', async () => {
    const { project, contents } = await createLayout(api, token);
    expect((await api.get(`${project}/revisions/1`, { token })).status).toBe(200);
    const other = await api.newAccount('past-states-other');
    for (const options of [
      { token: other.token },
      { ...ifNoneMatch('"r1"'), token: other.token },
    ]) {
      const answer = await api.get(`${project}/revisions/1`, options);
      expect(answer.status).toBe(404);
      expect(answer.body.detail).toBe('Project not found');
    }
    // Two more revisions: revision 1 falls out of the four kept.
    for (let i = 0; i < 2; i++) {
      expect((await api.post(contents, { type: 'empty' }, { token })).status).toBe(201);
    }
    for (const options of [{ token }, ifNoneMatch('"r1"')]) {
      const answer = await api.get(`${project}/revisions/1`, options);
      expect(answer.status).toBe(404);
      expect(answer.body.detail).toBe('Revision not found');
    }
    // Not made yet: 404 to its tag too.
    expect((await api.get(`${project}/revisions/7`, ifNoneMatch('"r7"'))).status).toBe(404);
    expect((await api.get(`${project}/revisions/3`, ifNoneMatch('"r3"'))).status).toBe(304);
  });
});
