import { requestIdFrom } from './request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdFrom', () => {
  it.each([
    ['abc-123'],
    ['trace.id_7'],
    ['a'],
    ['x'.repeat(128)],
    ['0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0'],
  ])('keeps the sane id %s', (id) => {
    expect(requestIdFrom(id)).toBe(id);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['too long', 'x'.repeat(129)],
    ['with spaces', 'a b'],
    ['with a line break', 'abc\ninjected'],
    ['with quotes', '"abc"'],
    ['sent twice', ['abc', 'def']],
  ])('replaces an id that is %s with a new UUID', (_what, header) => {
    expect(requestIdFrom(header)).toMatch(UUID);
  });

  it('generates a different id each time', () => {
    expect(requestIdFrom(undefined)).not.toBe(requestIdFrom(undefined));
  });
});
