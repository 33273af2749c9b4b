import { NotFoundException } from '@nestjs/common';
import { type FastifyInstance } from 'fastify';
import {
  PROBLEM_STATUSES,
  PROBLEM_TITLES,
  PROBLEM_TYPES,
  type ProblemKind,
  type ProblemType,
} from '@layout/contracts';
import { sendProblem, toProblem } from '../common/filters/problem';
import { problemWhen } from '../openapi/problems';

/** Where the type URIs live: `/problems/<name>`, relative to the service. */
export const PROBLEMS_PATH = '/problems';

const SERVICE = 'Proposal page layout service';

/** Text as HTML: the five characters that can change its meaning escaped. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ?? '',
  );
}

/** A sentence with Markdown code spans (as the OpenAPI descriptions have them) as HTML. */
export function sentenceHtml(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function page(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)} · ${SERVICE}</title>`,
    '</head>',
    '<body>',
    '<main>',
    body,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The page of one problem type: its title, status, type URI and when it happens. */
export function problemPage(kind: ProblemKind): string {
  const type = PROBLEM_TYPES[kind];
  const title = PROBLEM_TITLES[type];
  return page(
    title,
    [
      `<h1>${escapeHtml(title)}</h1>`,
      '<dl>',
      `<dt>Type</dt><dd><code>${escapeHtml(type)}</code></dd>`,
      `<dt>Status</dt><dd>${PROBLEM_STATUSES[type]}</dd>`,
      '</dl>',
      `<p>${sentenceHtml(problemWhen(kind))}</p>`,
      '<p>Errors are RFC 9457 <code>application/problem+json</code> bodies whose ' +
        "<code>type</code> is this page's path; <code>detail</code> says more about the one " +
        'at hand.</p>',
      `<p><a href="${PROBLEMS_PATH}">Every problem type</a> · ` +
        '<a href="/docs">The API\'s documentation</a></p>',
    ].join('\n'),
  );
}

/** The list of every problem type, each linking to its page. */
export function problemListPage(): string {
  const items = (Object.keys(PROBLEM_TYPES) as ProblemKind[]).map((kind) => {
    const type = PROBLEM_TYPES[kind];
    return (
      `<li><a href="${escapeHtml(type)}"><code>${escapeHtml(type)}</code></a>: ` +
      `${escapeHtml(PROBLEM_TITLES[type])} (${PROBLEM_STATUSES[type]})</li>`
    );
  });
  return page(
    'Problem types',
    [
      '<h1>Problem types</h1>',
      '<p>The <code>type</code> of every error body (RFC 9457 ' +
        '<code>application/problem+json</code>) this service answers:</p>',
      '<ul>',
      ...items,
      '</ul>',
      '<p><a href="/docs">The API\'s documentation</a></p>',
    ].join('\n'),
  );
}

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'public, max-age=3600',
};

/**
 * GET /problems/<name> answers a short HTML page on that problem type (the type URIs of the
 * error bodies are relative, so following one lands here) and GET /problems lists them; an
 * unknown name answers the not-found problem. Plain Fastify routes: no token, no request
 * budget, and no operation of the OpenAPI document (the info text mentions them). The pages are
 * built once; they load nothing, so the API's content security policy suits them.
 */
export function serveProblemPages(fastify: FastifyInstance): void {
  const pages = new Map<string, string>(
    (Object.entries(PROBLEM_TYPES) as Array<[ProblemKind, ProblemType]>).map(([kind, type]) => [
      type.slice(PROBLEMS_PATH.length + 1),
      problemPage(kind),
    ]),
  );
  const list = problemListPage();

  fastify.get(PROBLEMS_PATH, (_request, reply) => reply.headers(HTML_HEADERS).send(list));
  fastify.get<{ Params: { name: string } }>(`${PROBLEMS_PATH}/:name`, (request, reply) => {
    const html = pages.get(request.params.name);
    if (html !== undefined) return reply.headers(HTML_HEADERS).send(html);
    const problem = toProblem(
      new NotFoundException('No problem type has this name'),
      request.url.split('?')[0],
    );
    sendProblem(reply, problem);
    return reply;
  });
}
