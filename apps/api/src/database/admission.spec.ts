import { jest } from '@jest/globals';
import { TooManyConcurrentRequestsError } from '../common/errors';
import {
  Admission,
  HEAVY_BYTES_PER_SECOND,
  NO_ACCOUNT,
  OTHERS_ACTIVE_WITHIN_MS,
} from './admission';

describe('Admission', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('admits an account to half of the pool, and refuses the rest after the wait', async () => {
    const admission = new Admission(4);
    await admission.admit('a', false, 100);
    await admission.admit('a', false, 100);
    const third = admission.admit('a', false, 100).catch((error: unknown) => error);
    // The other account still gets in meanwhile.
    await expect(admission.admit('b', false, 100)).resolves.toEqual(expect.any(Function));
    await jest.advanceTimersByTimeAsync(100);
    expect(await third).toBeInstanceOf(TooManyConcurrentRequestsError);
  });

  it('lets a waiting call go as soon as its client is gone, refused and holding nothing', async () => {
    const admission = new Admission(2);
    const leave = await admission.admit('a', false, 1000);
    const gone = new AbortController();
    const abandoned = admission
      .admit('a', false, 1000, gone.signal)
      .catch((error: unknown) => error);
    gone.abort();
    // Refused before its wait is over.
    await jest.advanceTimersByTimeAsync(1);
    expect(await abandoned).toBeInstanceOf(TooManyConcurrentRequestsError);
    leave();
    // Nothing left taken: the account's one place is free again.
    await expect(admission.admit('a', false, 0)).resolves.toEqual(expect.any(Function));
  });

  it('stops waiting for the heavy budget when the client is gone, and gives the places back', async () => {
    const admission = new Admission(8);
    (await admission.admit('b', false, 0))();
    admission.charge('a', HEAVY_BYTES_PER_SECOND * 2);
    const gone = new AbortController();
    const waiting = admission.admit('a', true, 5000, gone.signal).catch((error: unknown) => error);
    await jest.advanceTimersByTimeAsync(10);
    gone.abort();
    await jest.advanceTimersByTimeAsync(1);
    expect(await waiting).toBeInstanceOf(TooManyConcurrentRequestsError);
    // The account's one heavy place was given back: another account's heavy read is not
    // held up, and this account's next heavy read waits for its budget, not for a place.
    await expect(admission.admit('b', true, 0)).resolves.toEqual(expect.any(Function));
  });

  it('admits one heavy read per account at a time, a light one beside it', async () => {
    const admission = new Admission(10);
    const leave = await admission.admit('a', true, 100);
    const second = admission.admit('a', true, 100);
    await expect(admission.admit('a', false, 100)).resolves.toEqual(expect.any(Function));
    await jest.advanceTimersByTimeAsync(50);
    leave();
    await expect(second).resolves.toEqual(expect.any(Function));
  });

  it('bounds heavy reads over all accounts to a quarter of the pool', async () => {
    const admission = new Admission(8);
    await admission.admit('a', true, 100);
    await admission.admit('b', true, 100);
    const third = admission.admit('c', true, 100).catch((error: unknown) => error);
    await jest.advanceTimersByTimeAsync(100);
    expect(await third).toBeInstanceOf(TooManyConcurrentRequestsError);
  });

  it('gives back what a refused heavy read had taken', async () => {
    const admission = new Admission(2);
    const leave = await admission.admit('a', false, 100);
    // The heavy places are free, the connection share (1 of 2) is not.
    const heavy = admission.admit('a', true, 100).catch((error: unknown) => error);
    await jest.advanceTimersByTimeAsync(100);
    expect(await heavy).toBeInstanceOf(TooManyConcurrentRequestsError);
    leave();
    // Had the refused read kept its heavy places, these would wait and fail.
    await expect(admission.admit('a', true, 0)).resolves.toEqual(expect.any(Function));
  });

  it("spaces an account's heavy reads by what they took while another account is active, leaving its light reads and others alone", async () => {
    const admission = new Admission(10);
    (await admission.admit('b', false, 0))();
    admission.charge('a', HEAVY_BYTES_PER_SECOND);
    // A second's worth spent: a heavy read that may wait half a second is refused, once its
    // wait is over ...
    let refused: unknown;
    const impatient = admission.admit('a', true, 500).catch((error: unknown) => (refused = error));
    await jest.advanceTimersByTimeAsync(490);
    expect(refused).toBeUndefined();
    await jest.advanceTimersByTimeAsync(10);
    expect(await impatient).toBeInstanceOf(TooManyConcurrentRequestsError);
    // ... one that may wait longer starts once the second has passed.
    let started = false;
    const patient = admission.admit('a', true, 2000).then((leave) => {
      started = true;
      return leave;
    });
    await expect(admission.admit('a', false, 0)).resolves.toEqual(expect.any(Function));
    await expect(admission.admit('b', true, 0)).resolves.toEqual(expect.any(Function));
    // Half a second has passed; the budget's second ends half a second from now.
    await jest.advanceTimersByTimeAsync(400);
    expect(started).toBe(false);
    await jest.advanceTimersByTimeAsync(200);
    expect(started).toBe(true);
    (await patient)();
  });

  it("paces an account's kept heavy answers for as long as its budget takes, refusing only one too many at once", async () => {
    const admission = new Admission(10);
    (await admission.admit('b', false, 0))();
    // Three seconds' worth spent: more than a wait of half a second.
    admission.charge('a', 3 * HEAVY_BYTES_PER_SECOND);
    let served = false;
    const paced = admission.admitKept('a', HEAVY_BYTES_PER_SECOND, 500).then(() => {
      served = true;
    });
    // Another one at the same time waits for the account's heavy turn, and is refused.
    const beside = admission
      .admitKept('a', HEAVY_BYTES_PER_SECOND, 500)
      .catch((error: unknown) => error);
    await jest.advanceTimersByTimeAsync(500);
    expect(await beside).toBeInstanceOf(TooManyConcurrentRequestsError);
    await jest.advanceTimersByTimeAsync(2400);
    expect(served).toBe(false);
    await jest.advanceTimersByTimeAsync(100);
    expect(served).toBe(true);
    await paced;
  });

  describe('who counts as another account using the instance', () => {
    /** Charges four heavy answers to account a, then says how long its next heavy read waited. */
    async function nextHeavyWait(admission: Admission): Promise<number> {
      for (let i = 0; i < 4; i++) admission.charge('a', HEAVY_BYTES_PER_SECOND / 8);
      const startedAt = Date.now();
      let waited = -1;
      const next = admission.admit('a', true, 60_000).then((leave) => {
        waited = Date.now() - startedAt;
        leave();
      });
      await jest.advanceTimersByTimeAsync(60_000);
      await next;
      return waited;
    }

    it('another account admitted just now: the heavy answers are paced by their bytes', async () => {
      const admission = new Admission(8);
      (await admission.admit('b', false, 0))();
      expect(await nextHeavyWait(admission)).toBe(500);
    });

    it('none: an account alone is not held back, nobody is waiting for it', async () => {
      const admission = new Admission(8);
      // Calls outside an account are nobody's work to make room for.
      (await admission.admit(NO_ACCOUNT, false, 0))();
      expect(await nextHeavyWait(admission)).toBe(0);
    });

    it('none once the other account has been idle for a while', async () => {
      const admission = new Admission(8);
      (await admission.admit('b', false, 0))();
      await jest.advanceTimersByTimeAsync(OTHERS_ACTIVE_WITHIN_MS + 1);
      expect(await nextHeavyWait(admission)).toBe(0);
    });

    it('one seen before this one, not only the last one admitted', async () => {
      const admission = new Admission(8);
      (await admission.admit('b', false, 0))();
      // Many of this account's own calls since do not hide b.
      for (let i = 0; i < 3; i++) admission.tryAdmit('a', false)?.();
      expect(await nextHeavyWait(admission)).toBe(500);
    });
  });

  describe('answers kept from earlier reads', () => {
    it('charges a heavy kept answer as a built one: the next heavy read of the account waits', async () => {
      const admission = new Admission(8);
      (await admission.admit('b', false, 0))();
      await admission.admitKept('a', HEAVY_BYTES_PER_SECOND / 2, 0);
      let started = false;
      const next = admission.admitKept('a', HEAVY_BYTES_PER_SECOND / 2, 2000).then(() => {
        started = true;
      });
      await jest.advanceTimersByTimeAsync(490);
      expect(started).toBe(false);
      await jest.advanceTimersByTimeAsync(10);
      await next;
      expect(started).toBe(true);
      // A light read is not held up meanwhile, nor another account's heavy one.
      await expect(admission.admit('a', false, 0)).resolves.toEqual(expect.any(Function));
      await expect(admission.admitKept('b', HEAVY_BYTES_PER_SECOND, 0)).resolves.toBeUndefined();
    });

    it('serves the next one once the budget allows, past its wait: one at a time is no refusal', async () => {
      const admission = new Admission(8);
      (await admission.admit('b', false, 0))();
      await admission.admitKept('a', HEAVY_BYTES_PER_SECOND, 0);
      let served = false;
      const next = admission.admitKept('a', 1, 300).then(() => {
        served = true;
      });
      await jest.advanceTimersByTimeAsync(990);
      expect(served).toBe(false);
      await jest.advanceTimersByTimeAsync(10);
      expect(served).toBe(true);
      await next;
    });

    it('serves them one after another to an account alone, as fast as they come', async () => {
      const admission = new Admission(8);
      for (let i = 0; i < 20; i++) {
        await expect(admission.admitKept('a', HEAVY_BYTES_PER_SECOND, 0)).resolves.toBeUndefined();
      }
    });
  });
});
