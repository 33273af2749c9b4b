/** One event of a text/event-stream, as a browser's EventSource would dispatch it. */
export interface ReceivedEvent {
  id?: string;
  event: string;
  data: string;
}

/** One account of a `presence` event's `present`. */
export interface PresentAccount {
  account: { _id: string; username: string };
  location: string | null;
  state: 'viewing' | 'editing';
  since: string;
}

/** An open stream of Server-Sent Events, read as it comes. */
export interface EventStreamClient {
  status: number;
  headers: Record<string, string>;
  /** The body of an answer that is not a stream (a problem). */
  text?: string;
  /** Every event so far but the presence events (changes and resets), in order. */
  readonly events: ReceivedEvent[];
  /** Every event so far, presence events included, in order. */
  readonly received: ReceivedEvent[];
  /** The `present` of every presence event so far, in order. */
  readonly presence: PresentAccount[][];
  /** Comment lines so far. */
  readonly comments: string[];
  /** Resolves once the stream is over. */
  ended: Promise<void>;
  /** Whether the server ended it (the body complete), not a cut or close(). */
  endedCleanly: boolean;
  /** Waits until `predicate` holds for the events received, or fails after `timeoutMs`. */
  waitFor(
    predicate: (events: ReceivedEvent[]) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<void>;
  /** Waits until the last presence received satisfies `predicate`; answers it. */
  waitForPresence(
    predicate: (present: PresentAccount[]) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<PresentAccount[]>;
  close(): void;
}

/**
 * Opens `url` as a fetch stream and parses it as the HTML standard says (fields, blank line
 * dispatch, comments): the way an SPA reads a stream with `fetch`.
 */
export async function openEventStream(
  url: string,
  headers: Record<string, string> = {},
): Promise<EventStreamClient> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const events: ReceivedEvent[] = [];
  const received: ReceivedEvent[] = [];
  const presence: PresentAccount[][] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((wake) => wake());
  const client: EventStreamClient = {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    events,
    received,
    presence,
    comments,
    ended: Promise.resolve(),
    endedCleanly: false,
    async waitFor(predicate, what, timeoutMs = 15_000) {
      if (predicate(events)) return;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${what}; received ${JSON.stringify(events)}`));
        }, timeoutMs);
        const check = () => {
          if (!predicate(events)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
    async waitForPresence(predicate, what, timeoutMs) {
      const last = () => presence.at(-1);
      await client.waitFor(
        () => {
          const present = last();
          return present !== undefined && predicate(present);
        },
        `presence: ${what}; received ${JSON.stringify(presence)}`,
        timeoutMs,
      );
      return last()!;
    },
    close: () => controller.abort(),
  };
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    client.text = await response.text();
    return client;
  }
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  client.ended = (async () => {
    let buffer = '';
    let current: Partial<ReceivedEvent> & { data?: string } = {};
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          client.endedCleanly = true;
          break;
        }
        buffer += value;
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, newline).replace(/\r$/, '');
          buffer = buffer.slice(newline + 1);
          if (line === '') {
            if (current.data !== undefined) {
              const event = {
                id: current.id,
                event: current.event ?? 'message',
                data: current.data,
              };
              received.push(event);
              if (event.event === 'presence') {
                presence.push((JSON.parse(event.data) as { present: PresentAccount[] }).present);
              } else {
                events.push(event);
              }
            }
            current = {};
            notify();
            continue;
          }
          if (line.startsWith(':')) {
            comments.push(line.slice(1).trim());
            notify();
            continue;
          }
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'data')
            current.data = current.data === undefined ? value : `${current.data}\n${value}`;
          else if (field === 'id') current.id = value;
          else if (field === 'event') current.event = value;
        }
      }
    } catch {
      // Aborted by close(), or the connection was cut.
    }
    notify();
  })();
  return client;
}

/** The revisions of the `change` events received, in order. */
export const changeRevisions = (events: ReceivedEvent[]): number[] =>
  events
    .filter((e) => e.event === 'change')
    .map((e) => (JSON.parse(e.data) as { revision: number }).revision);
