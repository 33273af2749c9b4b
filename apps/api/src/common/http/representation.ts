import { type SerializedJson } from '../json/serialized-json';

/** Headers a representation sets on its answer. */
export interface RepresentationHeaders {
  /** Strong entity tag of the document (or of the resource, for a 304). */
  readonly etag?: string;
  /** The project revision a write created (or found, when it changed nothing). */
  readonly projectRevision?: number;
  /** Path of a resource a create made. */
  readonly location?: string;
}

/**
 * What a service answers: a document with the headers that describe it, "not modified", or no
 * body at all (a delete). The reply hook (bootstrap/json-replies.ts) turns it into HTTP, so
 * that controllers only return it.
 */
export class Representation<T = unknown> {
  private constructor(
    readonly body: SerializedJson<T> | undefined,
    readonly headers: RepresentationHeaders,
    readonly notModified: boolean,
  ) {}

  static of<T>(body: SerializedJson<T>, headers: RepresentationHeaders): Representation<T> {
    return new Representation(body, headers, false);
  }

  /** 304: the client's copy is current. */
  static notModified<T>(etag: string): Representation<T> {
    return new Representation<T>(undefined, { etag }, true);
  }

  /** An answer without a body (204). */
  static empty(headers: RepresentationHeaders): Representation<never> {
    return new Representation<never>(undefined, headers, false);
  }
}
