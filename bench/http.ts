/** One JSON request as a client sends it; used to create the service's fresh write projects. */
export interface Reply {
  status: number;
  location: string | null;
  contentType: string | null;
  wwwAuthenticate: string | null;
  /** Parsed JSON, or undefined for an empty body. */
  body: unknown;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
}

export async function call(
  baseUrl: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return {
    status: response.status,
    location: response.headers.get('location'),
    contentType: response.headers.get('content-type'),
    wwwAuthenticate: response.headers.get('www-authenticate'),
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
  };
}

/** Like call, but anything other than `expected` is an error naming the request and the answer. */
export async function expectCall(
  expected: number,
  baseUrl: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const reply = await call(baseUrl, method, path, options);
  if (reply.status !== expected) {
    throw new Error(
      `${method} ${baseUrl}${path} answered ${reply.status}, expected ${expected}: ${JSON.stringify(reply.body)}`,
    );
  }
  return reply;
}

/** The `_id` of a created resource. */
export function idOf(reply: Reply): string {
  const id = (reply.body as { _id?: unknown } | undefined)?._id;
  if (typeof id !== 'string') throw new Error(`no _id in ${JSON.stringify(reply.body)}`);
  return id;
}
