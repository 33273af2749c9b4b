import { Writable } from 'node:stream';
import { type EventSink } from '../../common/http/event-stream-response';
import { type RecordedRevision } from '../repositories/events.repository';
import { EventStream } from './event-stream';

/** A sink over a real Writable that takes `capacity` bytes, then never drains (a client that stopped reading). */
function sinkOf(capacity = Infinity) {
  const written: string[] = [];
  let taken = 0;
  const writable = new Writable({
    highWaterMark: 16,
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString());
      taken += chunk.length;
      // Past its capacity it never calls back: what follows stays queued in the stream.
      if (taken <= capacity) done();
    },
  });
  let destroyed = false;
  const sink: EventSink = {
    write: (chunk) => writable.write(chunk),
    get unsentBytes() {
      return writable.writableLength;
    },
    end: () => writable.end(),
    destroy: () => {
      destroyed = true;
      writable.destroy();
    },
    onClose: (listener) => writable.once('close', listener),
  };
  return { sink, written, isDestroyed: () => destroyed };
}

const entry = (revision: number): RecordedRevision => ({
  revision,
  operation: 'content.update',
  path: `/projects/p/contents/${revision}`,
  author: { _id: 'a', username: 'ada' },
});
const entries = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => entry(from + i));
const OWNER = { streamId: 's', accountId: 'a', tokenHash: 't', projectId: 'p' };

const ids = (written: string[]) =>
  written
    .join('')
    .match(/^id: \d+$/gm)
    ?.map((line) => Number(line.slice(4))) ?? [];
const kinds = (written: string[]) => written.join('').match(/^event: \w+$/gm) ?? [];

const PRESENT = '{"present":[]}';

/** A stream whose first event, the presence, was sent (and is no longer in `written`). */
function startedStream(
  start: number,
  sink: EventSink,
  written: string[],
  maxUnsent: number,
): EventStream {
  const stream = new EventStream(OWNER, start, sink, maxUnsent);
  stream.presence(PRESENT);
  written.length = 0;
  return stream;
}

describe('EventStream', () => {
  it('sends the presence first, without an id, and no change before it', () => {
    const { sink, written } = sinkOf();
    const stream = new EventStream(OWNER, 3, sink, 1024);
    stream.catchUp({ current: 5, revisions: entries(4, 5) });
    expect(written).toEqual([]);
    expect(stream.isStarted).toBe(false);
    stream.presence(PRESENT);
    stream.catchUp({ current: 5, revisions: entries(4, 5) });
    expect(kinds(written)).toEqual(['event: presence', 'event: change', 'event: change']);
    expect(written[0]).toBe(`event: presence\ndata: ${PRESENT}\n\n`);
    expect(ids(written)).toEqual([4, 5]);
  });

  it('sends each revision after what it sent, once, in order', () => {
    const { sink, written } = sinkOf();
    const stream = startedStream(3, sink, written, 1024);
    stream.catchUp({ current: 6, revisions: entries(2, 6) });
    stream.catchUp({ current: 6, revisions: entries(4, 6) });
    stream.catchUp({ current: 8, revisions: entries(5, 8) });
    expect(ids(written)).toEqual([4, 5, 6, 7, 8]);
    expect(stream.sentUpTo).toBe(8);
    expect(written.join('')).toContain(
      'id: 4\nevent: change\ndata: {"revision":4,"operation":"content.update","path":"/projects/p/contents/4","etag":"\\"r4\\"","author":{"_id":"a","username":"ada"}}\n\n',
    );
  });

  it('sends one reset at the current revision when the next one it owes is no longer kept', () => {
    const { sink, written } = sinkOf();
    const stream = startedStream(2, sink, written, 1024);
    stream.catchUp({ current: 9, revisions: entries(5, 9) });
    expect(kinds(written)).toEqual(['event: reset']);
    expect(written.join('')).toBe(
      'id: 9\nevent: reset\ndata: {"revision":9,"etag":"\\"r9\\""}\n\n',
    );
    stream.catchUp({ current: 10, revisions: entries(5, 10) });
    expect(ids(written)).toEqual([9, 10]);
  });

  it('resets a stream that starts past the project’s revisions, or before the first', () => {
    for (const start of [12, -1]) {
      const { sink, written } = sinkOf();
      startedStream(start, sink, written, 1024).catchUp({ current: 7, revisions: entries(1, 7) });
      expect(kinds(written)).toEqual(['event: reset']);
      expect(ids(written)).toEqual([7]);
    }
  });

  it('waits, without a reset, when a read stops short of what it owes (the next read brings it)', () => {
    const { sink, written } = sinkOf();
    const stream = startedStream(600, sink, written, 1024 * 1024);
    stream.catchUp({ current: 900, revisions: entries(100, 599) });
    expect(written).toEqual([]);
    stream.catchUp({ current: 900, revisions: entries(600, 605) });
    expect(ids(written)).toEqual([601, 602, 603, 604, 605]);
  });

  it('cuts off a client that does not read, past what it may leave unsent, and sends no more', () => {
    const { sink, written, isDestroyed } = sinkOf(2000);
    const stream = startedStream(0, sink, written, 4096);
    let closed = 0;
    stream.onClose(() => (closed += 1));
    stream.catchUp({ current: 200, revisions: entries(1, 200) });
    expect(isDestroyed()).toBe(true);
    expect(stream.isOpen).toBe(false);
    expect(closed).toBe(1);
    const sent = stream.sentUpTo;
    expect(sent).toBeLessThan(200);
    stream.catchUp({ current: 201, revisions: entries(1, 201) });
    stream.keepAlive();
    expect(stream.sentUpTo).toBe(sent);
    // What it held for the client never went past the limit by more than one event.
    expect(written.join('').length).toBeLessThan(2000 + 4096 + 200);
  });

  it('keeps a reading client however much it is sent', () => {
    const { sink, written, isDestroyed } = sinkOf();
    const stream = startedStream(0, sink, written, 4096);
    stream.catchUp({ current: 2000, revisions: entries(1, 2000) });
    expect(isDestroyed()).toBe(false);
    expect(stream.sentUpTo).toBe(2000);
  });
});
