export const VIDEO_PROVIDERS = ['youtube', 'vimeo', 'wistia', 'loom', 'file'] as const;

export type VideoProvider = (typeof VIDEO_PROVIDERS)[number];

const PROVIDER_DOMAINS: ReadonlyArray<readonly [VideoProvider, readonly string[]]> = [
  ['youtube', ['youtube.com', 'youtu.be', 'youtube-nocookie.com']],
  ['vimeo', ['vimeo.com']],
  ['wistia', ['wistia.com', 'wistia.net', 'wi.st']],
  ['loom', ['loom.com']],
];

function isOnDomain(hostname: string, domain: string): boolean {
  return hostname === domain || hostname.endsWith(`.${domain}`);
}

/**
 * The provider a video URL belongs to, from its host name (sub-domains included, so
 * `www.youtube.com` and `fast.wistia.net` count); any other or unparsable URL is a plain file.
 */
export function inferVideoProvider(url: string): VideoProvider {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.toLowerCase();
  } catch {
    return 'file';
  }
  const match = PROVIDER_DOMAINS.find(([, domains]) =>
    domains.some((domain) => isOnDomain(hostname, domain)),
  );
  return match === undefined ? 'file' : match[0];
}
