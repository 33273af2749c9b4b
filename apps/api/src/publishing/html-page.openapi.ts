import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiProduces, ApiResponse } from '@nestjs/swagger';

const ETAG = {
  description:
    "The project's tag at the revision the page shows: it changes exactly when the project's does.",
  required: true,
  schema: { type: 'string', example: '"r7"' },
};

const CONTENT_SECURITY_POLICY = {
  description:
    'What the page may load: its images and videos, its inline styles; no script source at all.',
  required: true,
  schema: { type: 'string' },
};

/**
 * A rendered page: 200 `text/html` with its tag and content security policy, or 304 when
 * `If-None-Match` names the tag.
 */
export function ApiHtmlPage(
  description: string,
  headers: Record<string, object> = {},
): MethodDecorator {
  return applyDecorators(
    ApiProduces('text/html'),
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: 'Entity tags: when one is the current tag, the answer is 304 without a body.',
      schema: { type: 'string', example: '"r7"' },
    }),
    ApiResponse({
      status: 200,
      description,
      content: { 'text/html': { schema: { type: 'string' } } },
      headers: { ETag: ETAG, 'Content-Security-Policy': CONTENT_SECURITY_POLICY, ...headers },
    }),
    ApiResponse({
      status: 304,
      description: 'Not modified: `If-None-Match` names the current tag. No body.',
      headers: { ETag: ETAG, ...headers },
    }),
  );
}
