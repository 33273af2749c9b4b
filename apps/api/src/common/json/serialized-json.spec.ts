import { SerializedJson } from './serialized-json';

describe('SerializedJson', () => {
  it('keeps the text as it came, for the reply serializer to send untouched', () => {
    expect(new SerializedJson('{"_id" : "a", "size" : "4"}').text).toBe(
      '{"_id" : "a", "size" : "4"}',
    );
  });

  it('holds UTF-8 bytes as they are, and reads them as the same text', () => {
    const text = '{"title" : "Café ✓"}';
    const bytes = Buffer.from(text);
    const document = new SerializedJson<{ title: string }>(bytes);
    expect(document.payload).toBe(bytes);
    expect(document.text).toBe(text);
    expect(document.toJSON()).toEqual({ title: 'Café ✓' });
  });

  it('stringifies to the document it holds wherever it is stringified as a value', () => {
    const document = new SerializedJson<{ _id: string }[]>('[{"_id" : "a"}, \n {"_id" : "b"}]');
    expect(JSON.stringify({ items: document })).toBe('{"items":[{"_id":"a"},{"_id":"b"}]}');
    expect(document.toJSON()).toEqual([{ _id: 'a' }, { _id: 'b' }]);
  });
});
