import { randomBytes } from 'node:crypto';
import { testDatabaseUrl } from '../resilience/support/databases';
import { JsonClient, send } from '../resilience/support/http';
import {
  type ServiceProcess,
  startService,
  stopAllServices,
} from '../resilience/support/service-process';
import { eventually } from '../support/eventually';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver';

const SERVER = 2;
const CLIENT = 3;
const STATUS_ERROR = 2;

/**
 * The built service with OTEL_EXPORTER_OTLP_ENDPOINT set, exporting to a collector on loopback
 * (a process of its own: the pg instrumentation patches `pg` as the process first loads it).
 * What arrives for a write: its request's span, continuing the trace sent in `traceparent`; the
 * unit of work beneath it; that unit's statements beneath it; all in one trace, and no token,
 * password, ticket or body in any attribute of any span.
 */
describe('traces over OTLP (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let receiver: OtlpReceiver;
  let service: ServiceProcess;
  let client: JsonClient;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    service = await startService({
      DATABASE_URL: testDatabaseUrl(),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'layout-under-test',
    });
    client = new JsonClient(service.port);
  }, 120_000);

  afterAll(async () => {
    await stopAllServices();
    await receiver?.close();
  });

  it('sends a write as request → unit of work → statements, in the trace it was sent in, with no secret', async () => {
    const { token, password } = await client.newAccount('traced');
    const me = await client.expect(200, 'GET', '/accounts/auth/me', undefined, token);
    const project = await client.expect(201, 'POST', '/projects', { title: 'Traced' }, token);
    const secretBody = `body-${randomBytes(8).toString('hex')}`;
    const secretTicket = randomBytes(32).toString('base64url');

    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const write = await send({
      port: service.port,
      method: 'POST',
      path: `/projects/${project._id}/blocks`,
      body: { description: secretBody },
      headers: {
        authorization: `Bearer ${token}`,
        traceparent: `00-${traceId}-${callerSpanId}-01`,
      },
    });
    expect(write.kind === 'answered' && write.status).toBe(201);
    // A ticket in the query string (refused: it is no ticket) stays out of the span.
    const stream = await client.call(
      'GET',
      `/projects/${project._id}/events?ticket=${secretTicket}`,
    );
    expect(stream.status).toBe(401);
    // A body that is no JSON: the parser's message quotes it.
    const malformed = await send({
      port: service.port,
      method: 'POST',
      path: `/projects/${project._id}/blocks`,
      body: `{"description": "${secretBody}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(malformed.kind === 'answered' && malformed.status).toBe(400);

    const ofTrace = () => receiver.spans.filter((span) => span.traceId === traceId);
    const request = await eventually(
      () => ofTrace().find((span) => span.kind === SERVER),
      "the write's request span",
    );
    const unit = await eventually(
      () => ofTrace().find((span) => span.name === 'unit of work'),
      "the write's unit of work",
    );
    const statements = await eventually(() => {
      const found = ofTrace().filter((span) => span.parentSpanId === unit.spanId);
      return found.some((span) => span.name.startsWith('pg.query:COMMIT')) && found;
    }, "the unit's statements, to its COMMIT");

    expect(request).toMatchObject({
      name: 'POST /projects/:projectId/blocks',
      parentSpanId: callerSpanId,
      service: 'layout-under-test',
      attributes: {
        'http.request.method': 'POST',
        'http.route': '/projects/:projectId/blocks',
        'http.response.status_code': 201,
        'url.path': `/projects/${project._id}/blocks`,
        'user.id': me._id,
      },
    });
    expect(unit.parentSpanId).toBe(request.spanId);
    expect(unit.statusCode).not.toBe(STATUS_ERROR);
    // The lock first, then the write's own statements: each of them a span beneath the unit.
    const names = unit.attributes['layout.statements'] as string[];
    expect(names[0]).toBe('projects.lock');
    expect(names.length).toBeGreaterThan(1);
    expect(statements.every((span) => span.kind === CLIENT)).toBe(true);
    const sent = statements.map((span) => span.attributes['db.postgresql.plan']).filter(Boolean);
    expect(sent).toEqual(expect.arrayContaining(names));
    expect(statements.map((span) => span.name)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^pg\.query:BEGIN/)]),
    );

    // Everything any request sent, sign-up and token included.
    const refused = await eventually(
      () => receiver.spans.find((span) => span.attributes['http.response.status_code'] === 401),
      "the refused stream's request span",
    );
    expect(refused.attributes['url.path']).toBe(`/projects/${project._id}/events`);
    await eventually(
      () => receiver.spans.find((span) => span.attributes['http.response.status_code'] === 400),
      "the malformed body's request span",
    );
    const values = receiver.spans.flatMap((span) =>
      [span.attributes, ...span.events.map((event) => event.attributes)]
        .flatMap((attributes) => Object.values(attributes))
        .flatMap((value) => (Array.isArray(value) ? value : [value]))
        .concat(span.statusMessage),
    );
    for (const secret of [token, password, secretBody, secretTicket]) {
      expect(values.filter((value) => String(value).includes(secret))).toEqual([]);
    }
  });
});
