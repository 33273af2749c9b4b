import { plainJsonOf } from './plain-json';

class Field {
  constructor(
    readonly id: string,
    readonly label?: string,
  ) {}
}

describe('plainJsonOf', () => {
  it('makes plain objects of class instances, at every depth, dropping undefined members', () => {
    const data = { content: { fields: [new Field('price', undefined)], items: [{ id: '1' }] } };
    const plain = plainJsonOf(data) as { content: { fields: object[] } };
    expect(plain).toEqual({ content: { fields: [{ id: 'price' }], items: [{ id: '1' }] } });
    expect(Object.getPrototypeOf(plain.content.fields[0])).toBe(Object.prototype);
    expect('label' in plain.content.fields[0]).toBe(false);
  });

  it('copies: changing the copy leaves the body as it was', () => {
    const data = { options: { currency: 'EUR' }, list: [1, 'a', true, null] };
    const plain = plainJsonOf(data) as typeof data;
    plain.options.currency = 'USD';
    plain.list.push(2);
    expect(data).toEqual({ options: { currency: 'EUR' }, list: [1, 'a', true, null] });
  });

  it('keeps what JSON keeps as it is', () => {
    expect(plainJsonOf('<p>x</p>')).toBe('<p>x</p>');
    expect(plainJsonOf(0)).toBe(0);
    expect(plainJsonOf(null)).toBeNull();
    expect(JSON.stringify(plainJsonOf({ a: [{ b: undefined, c: 1 }] }))).toBe('{"a":[{"c":1}]}');
  });
});
