import { jest } from '@jest/globals';
import { type DatabaseNotifications } from '../../notifications/notifications';
import { ChangeAnnouncer } from './change-announcer';
import { CHANGES_CHANNEL } from './change-feed';

/** Notifications whose statements answer only when the test says so. */
function notifications() {
  const sent: string[][] = [];
  const answers: Array<(sent: boolean) => void> = [];
  const fake = {
    sendEach: jest.fn((channel: string, payloads: readonly string[]) => {
      expect(channel).toBe(CHANGES_CHANNEL);
      sent.push([...payloads]);
      return new Promise<boolean>((resolve) => answers.push(resolve));
    }),
  };
  return {
    announcer: new ChangeAnnouncer(fake as unknown as DatabaseNotifications),
    sent,
    /** The statement on its way answers. */
    answer: (ok = true) => answers.shift()?.(ok),
  };
}

/** The end of the event loop's turn, and the promises it lets settle. */
const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('ChangeAnnouncer', () => {
  it('sends the projects announced in one turn once each, in one statement, after the turn', async () => {
    const { announcer, sent } = notifications();
    announcer.announce('p1');
    announcer.announce('p2');
    announcer.announce('p1');
    expect(sent).toEqual([]);
    await endOfTurn();
    expect(sent).toEqual([['p1', 'p2']]);
  });

  it('gathers what is announced while a statement is on its way into the next one', async () => {
    const { announcer, sent, answer } = notifications();
    announcer.announce('p1');
    await endOfTurn();
    announcer.announce('p1');
    announcer.announce('p3');
    await endOfTurn();
    // Not before the first has answered: the project was announced after it left.
    expect(sent).toEqual([['p1']]);
    answer();
    await endOfTurn();
    expect(sent).toEqual([['p1'], ['p1', 'p3']]);
    answer();
    await endOfTurn();
    expect(sent).toHaveLength(2);
  });

  it('goes on announcing after a statement that could not be sent', async () => {
    const { announcer, sent, answer } = notifications();
    announcer.announce('p1');
    await endOfTurn();
    answer(false);
    await endOfTurn();
    announcer.announce('p2');
    await endOfTurn();
    expect(sent).toEqual([['p1'], ['p2']]);
  });
});
