import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Api, createLayout, startTestApp } from './support/test-app';

describe("ownership: another account's project does not exist for you", () => {
  let app: NestFastifyApplication;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
  });
  afterAll(() => app.close());

  it('answers 404 on every path and method beneath the project, and changes nothing', async () => {
    const owner = await api.newAccount('owner');
    const intruder = await api.newAccount('intruder');
    const layout = await createLayout(api, owner.token);
    const content = (
      await api.post(layout.contents, { type: 'text', data: { html: 'x' } }, { token: owner.token })
    ).body;
    const contentPath = `${layout.contents}/${content._id}`;
    const before = (await api.get(layout.project, { token: owner.token })).body;

    const attempts: [string, string, unknown][] = [
      ['GET', layout.project, undefined],
      ['PUT', layout.project, { title: 'mine now' }],
      ['GET', `${layout.project}/blocks`, undefined],
      ['POST', `${layout.project}/blocks`, { description: 'x' }],
      ['GET', layout.block, undefined],
      ['PUT', layout.block, { description: 'x' }],
      ['GET', `${layout.block}/rows`, undefined],
      ['POST', `${layout.block}/rows`, {}],
      ['GET', layout.row, undefined],
      ['PUT', layout.row, { description: 'x' }],
      ['GET', layout.columns, undefined],
      ['POST', layout.columns, { size: 1 }],
      ['GET', layout.column, undefined],
      ['PUT', layout.column, { size: 1, contents: [] }],
      ['GET', layout.contents, undefined],
      ['POST', layout.contents, { type: 'empty' }],
      ['GET', contentPath, undefined],
      ['PUT', contentPath, { type: 'empty' }],
      ['POST', `${contentPath}/move`, {}],
      ['POST', `${contentPath}/duplicate`, {}],
      ['POST', `${layout.column}/move`, {}],
      ['POST', `${layout.column}/duplicate`, {}],
      ['POST', `${layout.row}/move`, {}],
      ['POST', `${layout.row}/duplicate`, {}],
      ['POST', `${layout.block}/move`, { position: 0 }],
      ['POST', `${layout.block}/duplicate`, {}],
      ['POST', `${layout.project}/duplicate`, {}],
      ['DELETE', contentPath, undefined],
      ['DELETE', layout.column, undefined],
      ['DELETE', layout.row, undefined],
      ['DELETE', layout.block, undefined],
      ['DELETE', layout.project, undefined],
    ];
    for (const [method, url, body] of attempts) {
      const response = await api.request(method, url, { token: intruder.token, body });
      expect({ method, url, status: response.status, type: response.body?.type }).toEqual({
        method,
        url,
        status: 404,
        type: '/problems/not-found',
      });
    }

    expect((await api.get('/projects', { token: intruder.token })).body).toEqual([]);
    expect((await api.get(layout.project, { token: owner.token })).body).toEqual(before);
  });

  it("lists only the caller's projects, without their blocks", async () => {
    const one = await api.newAccount();
    const two = await api.newAccount();
    await createLayout(api, one.token);
    const mine = (await api.post('/projects', { title: 'Second' }, { token: one.token })).body;
    await createLayout(api, two.token);
    const listed = (await api.get('/projects', { token: one.token })).body;
    expect(listed).toHaveLength(2);
    expect(listed[1]).toEqual({
      _id: mine._id,
      title: 'Second',
      revision: 1,
      createdAt: mine.createdAt,
      updatedAt: mine.updatedAt,
      role: 'owner',
    });
  });
});
