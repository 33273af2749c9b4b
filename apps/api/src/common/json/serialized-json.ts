/**
 * A response document that is already JSON, in the shape `T` (PostgreSQL builds the hot reads'
 * documents itself): its text, or its UTF-8 bytes when they are at hand (a document kept from
 * an earlier read). The reply serializer sends either as it is, so the tree is never parsed,
 * mapped and stringified again in Node, and kept bytes are never encoded again. Anything else
 * that stringifies it (a test, a log) still gets the document, through toJSON.
 */
export class SerializedJson<T> {
  constructor(private readonly serialized: string | Buffer) {}

  /** The document's text. */
  get text(): string {
    return typeof this.serialized === 'string' ? this.serialized : this.serialized.toString('utf8');
  }

  /** What an answer sends: the text, or the bytes. */
  get payload(): string | Buffer {
    return this.serialized;
  }

  toJSON(): T {
    return JSON.parse(this.text) as T;
  }
}
