/**
 * Base of every error a service throws on purpose. Services know nothing of HTTP: the single
 * exception filter maps each subclass to its problem type and status.
 */
export abstract class DomainError extends Error {
  protected constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
