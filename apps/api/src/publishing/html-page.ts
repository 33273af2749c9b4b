import { type FastifyReply } from 'fastify';

/**
 * What a rendered page may load and do: the images and videos its project names (on this
 * service's origin, as uploaded assets, or anywhere over http(s); text HTML may hold `data:`
 * images), its own inline styles, and nothing else. No script source at all, no form, no
 * `<base>`, no frame around it.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "img-src 'self' https: http: data:",
  "media-src 'self' https: http:",
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const HTML_TYPE = 'text/html; charset=utf-8';

/** A rendered page, or (without `html`) the answer that the client's copy is current. */
export interface HtmlPage {
  /** The project's tag at the revision the page shows. */
  readonly etag: string;
  readonly html?: Buffer;
}

/** Sends a page (200) or "not modified" (304), with its tag and its content security policy. */
export function sendHtml(
  reply: FastifyReply,
  page: HtmlPage,
  headers: Readonly<Record<string, string>> = {},
): void {
  void reply.headers({ ...headers, etag: page.etag, 'content-security-policy': PAGE_CSP });
  if (page.html === undefined) {
    void reply.code(304).send();
    return;
  }
  void reply.code(200).type(HTML_TYPE).send(page.html);
}
