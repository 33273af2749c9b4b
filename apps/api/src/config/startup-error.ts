/**
 * The service cannot start for a reason the person starting it must fix (a setting, a port or a
 * folder in use by something else): its message is one sentence that says what to do, and the
 * process entry prints that sentence alone, without a stack trace, and exits non-zero.
 */
export class StartupError extends Error {
  constructor(sentence: string) {
    super(sentence);
    this.name = new.target.name;
  }
}
