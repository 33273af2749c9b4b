/**
 * A response document that is already JSON text, in the shape `T` (PostgreSQL builds the hot
 * reads' documents itself): the reply serializer sends the text as it is, so the tree is never
 * parsed, mapped and stringified again in Node. Anything else that stringifies it (a test, a
 * log) still gets the document, through toJSON.
 */
export class SerializedJson<T> {
  constructor(readonly text: string) {}

  toJSON(): T {
    return JSON.parse(this.text) as T;
  }
}
