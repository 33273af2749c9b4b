import { assetPathsIn } from './asset-paths';

const A = '/assets/0190a6f0-7c4e-4b8a-9b1e-3f2d1c0b9a87';
const B = '/assets/0190a6f0-7c4e-4b8a-9b1e-3f2d1c0b9a88';

describe('assetPathsIn', () => {
  it('finds every asset path a body names, with its pointer', () => {
    expect(
      assetPathsIn({
        size: 6,
        contents: [
          { type: 'image', data: { url: A }, style: { backgroundImage: B } },
          { type: 'text', data: { html: A } },
          { type: 'image', data: { url: 'https://e.com/x.png' } },
        ],
        style: { backgroundImage: A },
      }),
    ).toEqual([
      { path: A, pointer: '/contents/0/data/url' },
      { path: B, pointer: '/contents/0/style/backgroundImage' },
      { path: A, pointer: '/style/backgroundImage' },
    ]);
  });

  it('finds none in what names no asset', () => {
    expect(assetPathsIn(undefined)).toEqual([]);
    expect(assetPathsIn({ url: '/assets/not-an-id', title: A })).toEqual([]);
    expect(assetPathsIn({ 'a/b~': { url: A } })).toEqual([{ path: A, pointer: '/a~1b~0/url' }]);
  });
});
