import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { hasRole, type ProjectRole } from '@layout/contracts';
import {
  type Access,
  accessOf,
  OPERATION_POLICY,
} from '../../apps/api/src/common/policy/operation-policy';
import { image } from '../assets/images';
import { Api, createLayout, type Response, startTestApp } from '../support/test-app';

type Json = Record<string, any>;
type Caller = 'no token' | 'non-member' | ProjectRole;

const CALLERS: Caller[] = ['no token', 'non-member', 'viewer', 'editor', 'owner'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
/** The writes that honour If-Match: sent with one that never matches, they change nothing. */
const CONDITIONAL = /\/(move|duplicate|restore|batch)$/;

/**
 * The policy, walked: every operation of the served OpenAPI document, called by an owner, an
 * editor, a viewer, an account that is no member and without a token, answers as the least
 * role the policy gives it says (common/policy/operation-policy.ts), and says that role in the
 * document. An operation the policy does not name fails here (and the service does not start).
 */
describe('the policy of every operation', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let document: Json;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    document = (await api.get('/docs/openapi.json')).body as Json;
  });
  afterAll(() => app.close());

  const operations = () =>
    Object.entries<Json>(document.paths).flatMap(([template, item]) =>
      METHODS.filter((method) => item[method] !== undefined).map((method) => ({
        method: method.toUpperCase(),
        template,
        operation: item[method] as Json,
        access: accessOf(method, template),
      })),
    );

  it('names every operation of the document, and no other, and the document says each least role', () => {
    const walked = operations();
    expect(walked.filter((op) => op.access === undefined).map((op) => op.template)).toEqual([]);
    expect(Object.keys(OPERATION_POLICY).sort()).toEqual(
      walked.map((op) => `${op.method} ${op.template}`).sort(),
    );
    for (const { access, operation, method, template } of walked) {
      const role = access === 'anyone' || access === 'signed-in' ? undefined : access;
      expect({ at: `${method} ${template}`, leastRole: operation['x-least-role'] }).toEqual({
        at: `${method} ${template}`,
        leastRole: role,
      });
      if (role !== undefined)
        expect(operation.description).toContain(`**Least role:** \`${role}\``);
      // Every operation that a member can lack the role for documents its 403.
      if (role === 'editor' || role === 'owner') {
        expect(Object.keys(operation.responses)).toContain('403');
      }
    }
  });

  it('answers each caller as the least role says: 401 without a token, 404 to a non-member, 403 below the role, and lets the others in', async () => {
    const owner = await api.newAccount('policy-owner');
    const editor = await api.newAccount('policy-editor');
    const viewer = await api.newAccount('policy-viewer');
    const outsider = await api.newAccount('policy-outsider');
    const paths = await createLayout(api, owner.token);
    const content = (await api.post(paths.contents, { type: 'empty' }, { token: owner.token }))
      .headers.location as string;
    for (const [member, role] of [
      [editor, 'editor'],
      [viewer, 'viewer'],
    ] as const) {
      await api.post(
        `${paths.project}/members`,
        { username: member.username, role },
        { token: owner.token },
      );
    }
    const link = (await api.post(`${paths.project}/links`, {}, { token: owner.token })).body;
    const asset = (
      await api.request('POST', '/assets', {
        token: owner.token,
        raw: await image('png'),
        headers: { 'content-type': 'image/png' },
      })
    ).body;
    const ids: Record<string, string> = {
      projectId: paths.project.split('/')[2],
      blockId: paths.block.split('/').at(-1)!,
      rowId: paths.row.split('/').at(-1)!,
      columnId: paths.column.split('/').at(-1)!,
      contentId: content.split('/').at(-1)!,
      revision: '1',
      linkId: link._id,
      token: (link.url as string).split('/').at(-1)!,
      assetId: asset._id,
      // A member's path names the non-member: only the owner may remove another.
      accountId: outsider.id,
    };
    const tokens: Record<Caller, string | undefined> = {
      'no token': undefined,
      'non-member': outsider.token,
      viewer: viewer.token,
      editor: editor.token,
      owner: owner.token,
    };

    const call = (method: string, template: string, token: string | undefined) => {
      const url = template.replace(/\{(\w+)\}/g, (_, name: string) => ids[name]);
      // A stream's headers, not the stream: HEAD answers as its GET.
      const verb = url.endsWith('/events') && method === 'GET' ? 'HEAD' : method;
      const headers: Record<string, string> = {};
      if (['PUT', 'DELETE'].includes(method) || CONDITIONAL.test(template)) {
        headers['if-match'] = '"never"';
      }
      const withBody = ['POST', 'PUT'].includes(method) && !template.startsWith('/assets');
      return api.request(verb, url, { token, headers, ...(withBody ? { body: {} } : {}) });
    };

    const wrong: string[] = [];
    const expect403 = (answer: Response, caller: Caller, least: ProjectRole) =>
      answer.status === 403 &&
      answer.body?.type === '/problems/forbidden-by-role' &&
      answer.body.role === caller &&
      answer.body.required === least;
    // A HEAD's answer has no body to say which.
    const isProjectNotFound = (answer: Response) =>
      answer.status === 404 && (answer.text === '' || answer.body?.detail === 'Project not found');

    for (const { method, template, access } of operations()) {
      if (access === undefined) continue;
      const callers: Caller[] =
        access === 'signed-in' || access === 'anyone' ? ['no token'] : CALLERS;
      for (const caller of callers) {
        const answer = await call(method, template, tokens[caller]);
        const verdict = judge(access, caller, answer);
        if (verdict)
          wrong.push(
            `${method} ${template} by ${caller}: ${verdict} (${answer.status} ${answer.text.slice(0, 120)})`,
          );
      }
      if (access === 'signed-in') {
        // Any account may: a new one, so that signing out or deleting it spoils nothing.
        const someone = await api.newAccount('policy-someone');
        const answer = await call(method, template, someone.token);
        if ([401, 403].includes(answer.status))
          wrong.push(`${method} ${template} refused a signed-in account`);
      }
    }
    expect(wrong).toEqual([]);

    function judge(access: Access, caller: Caller, answer: Response): string | undefined {
      if (access === 'anyone') return answer.status === 401 ? 'asked for a token' : undefined;
      if (caller === 'no token') return answer.status === 401 ? undefined : 'did not answer 401';
      if (access === 'signed-in') return undefined;
      if (caller === 'non-member') return isProjectNotFound(answer) ? undefined : 'not a 404';
      if (!hasRole(caller, access)) {
        return expect403(answer, caller, access) ? undefined : `not a 403 requiring ${access}`;
      }
      if (
        answer.status === 401 ||
        (answer.status === 404 && answer.body?.detail === 'Project not found') ||
        expect403(answer, caller, access)
      ) {
        return 'refused a role that may';
      }
      return undefined;
    }
  });
});
