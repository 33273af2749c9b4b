import { Negotiator } from '@fastify/accept-negotiator';

/** What a browser is shown for a link that does not work (any more). */
export const NOT_FOUND_PAGE = [
  '<!doctype html>',
  '<html lang="en">',
  '<head>',
  '<meta charset="utf-8">',
  '<meta name="viewport" content="width=device-width, initial-scale=1">',
  '<title>Link not available</title>',
  '</head>',
  '<body>',
  '<main>',
  '<h1>This link is not available</h1>',
  '<p>It may have been revoked or have expired. Ask the sender for a new one.</p>',
  '</main>',
  '</body>',
  '</html>',
  '',
].join('\n');

const TYPES = ['application/problem+json', 'application/json', 'text/html'];

/** Whether the request's `Accept` prefers an HTML page to a problem document (a browser's does). */
export function prefersHtml(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  return new Negotiator({ supportedValues: TYPES }).negotiate(accept) === 'text/html';
}
