import { inferVideoProvider } from './video-provider';

describe('inferVideoProvider', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'youtube'],
    ['https://youtube.com/embed/x', 'youtube'],
    ['https://youtu.be/dQw4w9WgXcQ', 'youtube'],
    ['https://m.youtube.com/watch?v=x', 'youtube'],
    ['https://vimeo.com/123', 'vimeo'],
    ['https://player.vimeo.com/video/123', 'vimeo'],
    ['https://acme.wistia.com/medias/abc', 'wistia'],
    ['https://fast.wistia.net/embed/iframe/abc', 'wistia'],
    ['https://wi.st/abc', 'wistia'],
    ['https://www.loom.com/share/abc', 'loom'],
    ['https://cdn.example.com/movie.mp4', 'file'],
    ['https://notyoutube.com/watch', 'file'],
    ['https://youtube.com.evil.example/x', 'file'],
    ['not a url', 'file'],
  ])('%s is %s', (url, provider) => expect(inferVideoProvider(url)).toBe(provider));
});
