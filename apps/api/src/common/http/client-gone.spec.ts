import { EventEmitter } from 'node:events';
import { watchClientGone } from './client-gone';

function connection(destroyed = false) {
  return Object.assign(new EventEmitter(), { destroyed });
}

describe('watchClientGone', () => {
  it('aborts when the connection closes', () => {
    const socket = connection();
    const watch = watchClientGone({ raw: { socket } });
    expect(watch?.signal.aborted).toBe(false);
    socket.emit('close');
    expect(watch?.signal.aborted).toBe(true);
  });

  it('is aborted already for a connection already closed', () => {
    expect(watchClientGone({ raw: { socket: connection(true) } })?.signal.aborted).toBe(true);
  });

  it('stops listening once the wait is over, so that a kept-alive connection collects nothing', () => {
    const socket = connection();
    const watch = watchClientGone({ raw: { socket } });
    expect(socket.listenerCount('close')).toBe(1);
    watch?.stop();
    expect(socket.listenerCount('close')).toBe(0);
    socket.emit('close');
    expect(watch?.signal.aborted).toBe(false);
  });

  it('watches nothing outside a request', () => {
    expect(watchClientGone(undefined)).toBeUndefined();
  });
});
