import { type EventSink } from '../../common/http/event-stream-response';
import { type RevisionsAfter } from '../repositories/events.repository';
import { changeEvent, commentLine, presenceEvent, resetEvent } from './sse';

/** Who a stream belongs to (an account, by the token that opened it) and what it follows. */
export interface StreamOwner {
  readonly streamId: string;
  readonly accountId: string;
  readonly tokenHash: string;
  readonly projectId: string;
}

/**
 * One client's stream of a project's changes: what it has been sent (`sentUpTo`, the last
 * revision), and the connection it writes to. Its first event is the project's presence, then
 * it sends each revision once, in order, from what the history holds (see catchUp), and the
 * presence again whenever it changes; it never buffers more than `maxUnsentBytes` for a client
 * that does not read: past that it cuts the connection, and what it would have sent is not kept.
 */
export class EventStream {
  private open = true;
  /** Its first event, the project's presence, is sent: the changes may follow. */
  private started = false;
  private readonly closedListeners: (() => void)[] = [];

  constructor(
    readonly owner: StreamOwner,
    private sent: number,
    private readonly sink: EventSink,
    private readonly maxUnsentBytes: number,
  ) {
    sink.onClose(() => this.closed());
  }

  /** The last revision this stream sent (or that its client had when it connected). */
  get sentUpTo(): number {
    return this.sent;
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** Whether its first event is sent, so that changes may follow (see `presence`). */
  get isStarted(): boolean {
    return this.started;
  }

  /**
   * Sends the project's presence (its `data`); the first one starts the stream, which sends no
   * change before it.
   */
  presence(json: string): void {
    if (!this.open) return;
    this.started = true;
    this.send(presenceEvent(json));
  }

  /** `listener` runs once, when the stream is over (closed by either side). */
  onClose(listener: () => void): void {
    if (this.open) this.closedListeners.push(listener);
    else listener();
  }

  /**
   * Sends what `history` holds after what this stream sent: the kept revisions after some
   * revision up to this one's, oldest first, without a gap (a prefix of the history is pruned,
   * never a revision in the middle). If the next revision this stream owes is not among them
   * (pruned), or its client claimed a revision the project never had, it sends one `reset` at
   * the current revision instead: the client reloads the project.
   */
  catchUp(history: RevisionsAfter): void {
    if (!this.open || !this.started) return;
    const { current, revisions } = history;
    if (this.sent === current) return;
    const next = revisions.find((entry) => entry.revision > this.sent);
    if (this.sent > current || next === undefined || next.revision !== this.sent + 1) {
      if (next === undefined && this.sent < current && revisions.length > 0) return;
      this.sent = current;
      this.send(resetEvent(current));
      return;
    }
    for (const entry of revisions) {
      if (entry.revision <= this.sent) continue;
      this.sent = entry.revision;
      if (!this.send(changeEvent(entry))) return;
    }
  }

  /** A comment line, so that proxies see the stream alive. */
  keepAlive(): void {
    if (this.open) this.send(commentLine('keep-alive'));
  }

  /** Ends the stream cleanly (the service is stopping, the project is gone, its token revoked). */
  end(): void {
    if (this.open) this.sink.end();
  }

  /** Writes `text`; false when the client was cut off for not reading. */
  private send(text: string): boolean {
    this.sink.write(text);
    if (this.sink.unsentBytes <= this.maxUnsentBytes) return true;
    this.sink.destroy();
    this.closed();
    return false;
  }

  private closed(): void {
    if (!this.open) return;
    this.open = false;
    for (const listener of this.closedListeners.splice(0)) listener();
  }
}
