import { type AccountRef } from '../member/account-ref.response';
import { type RevisionOperation } from './revision-operation';

/**
 * The `data` of an `event: change` of `GET /projects/<p>/events`; its `id` is `revision`. The
 * stream sends every revision once, in order; a client that reconnects with `Last-Event-ID`
 * gets what it missed.
 */
export interface ChangeEvent {
  revision: number;
  operation: RevisionOperation;
  /** The path of the node the request addressed. */
  path: string;
  /** The project's ETag at this revision: a read that answers it is up to date. */
  etag: string;
  /** The account that made it, or `null` once that account is deleted. */
  author: AccountRef | null;
}

/**
 * The `data` of an `event: reset`: revisions after the client's `Last-Event-ID` are no longer
 * kept (or the id is not one of this project's), so it reloads the project; the stream goes on
 * from `revision`.
 */
export interface ResetEvent {
  revision: number;
  etag: string;
}
