import fc from 'fast-check';
import { SignUpDto, validateBody } from '@layout/contracts';
import { RequestValidationError } from '../common/errors';
import { usernameForNewAccount, usernameKey } from './username';

const PASSWORD = 'correct horse battery staple';

/** Strings rich in what the rule cares about: spaces of every kind, controls, wide forms, case. */
const tricky = fc.string({
  unit: fc.oneof(
    fc.constantFrom(' ', '\t', '\u00a0', '\u3000', '\u200b', '\u0007', '\u00a8', '\u0130'),
    fc.constantFrom('a', 'B', '\uff41', '\uff22', '\u00e9', 'e\u0301', '\u03a3', '\u{1f600}'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 12,
});

describe('usernameForNewAccount', () => {
  it('stores the name trimmed and in NFKC, with its case, and its lower-case key', () => {
    expect(usernameForNewAccount(' \uff21lice ')).toEqual({ username: 'Alice', key: 'alice' });
  });

  it.each(['al ice', 'alice\u0000', 'ab', ''])('refuses %j at /username', (typed) => {
    const refusal = (() => {
      try {
        usernameForNewAccount(typed);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(RequestValidationError);
    expect((refusal as RequestValidationError).errors).toEqual([
      { pointer: '/username', detail: expect.any(String) },
    ]);
  });

  it('agrees with SignUpDto: the server refuses exactly what the DTO library refuses', async () => {
    await fc.assert(
      fc.asyncProperty(tricky, async (typed) => {
        const checked = await validateBody(SignUpDto, { username: typed, password: PASSWORD });
        const dtoDetail = checked.errors.find((error) => error.pointer === '/username')?.detail;
        let serverDetail: string | undefined;
        try {
          const { username, key } = usernameForNewAccount(typed);
          // What is stored is found again by what was typed.
          expect(usernameKey(typed)).toBe(key);
          expect(usernameKey(username)).toBe(key);
        } catch (error) {
          serverDetail = (error as RequestValidationError).errors[0].detail;
        }
        expect(serverDetail).toBe(dtoDetail);
      }),
      { numRuns: 500 },
    );
  });
});
