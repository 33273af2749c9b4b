import { type ChangeEvent, type ResetEvent } from '@layout/contracts';
import { nodeTag } from '../layout.tags';
import { type RecordedRevision } from '../repositories/events.repository';

// The text/event-stream format (HTML Living Standard, "Server-sent events"): fields of one event
// on lines of their own, a blank line after it. Every event carries `data:` (EventSource drops
// events without one) and its revision as `id:`, which a reconnecting client sends back as
// Last-Event-ID.

/** One committed revision. */
export function changeEvent(entry: RecordedRevision): string {
  const data: ChangeEvent = {
    revision: entry.revision,
    operation: entry.operation,
    path: entry.path,
    etag: nodeTag(entry.revision),
    author: entry.author,
  };
  return `id: ${entry.revision}\nevent: change\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Revisions the client has not seen are gone: it reloads the project, now at `revision`. */
export function resetEvent(revision: number): string {
  const data: ResetEvent = { revision, etag: nodeTag(revision) };
  return `id: ${revision}\nevent: reset\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Who is present in the project (`data` as GET …/presence answers it, built by PostgreSQL):
 * no `id:`, since presence is no revision, and a resumed stream gets the current one first.
 */
export function presenceEvent(json: string): string {
  return `event: presence\ndata: ${json}\n\n`;
}

/** A comment: ignored by clients, it keeps proxies from closing a quiet stream. */
export function commentLine(text: string): string {
  return `: ${text}\n\n`;
}

/** How long a browser waits before it reconnects, in milliseconds. */
export function retryField(ms: number): string {
  return `retry: ${ms}\n\n`;
}
