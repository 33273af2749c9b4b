import { request } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { documentedResponseCheck } from './openapi-validator';
import { type Response } from './test-app';

export interface FromAddressOptions {
  method?: string;
  body?: unknown;
  token?: string;
}

/**
 * Sends a JSON request to the app from another loopback address (Linux routes all of
 * 127.0.0.0/8 to the loopback interface), so that the server sees another client address; the
 * answer is checked against the OpenAPI document like every answer the Api helper receives.
 */
export async function requestFrom(
  app: NestFastifyApplication,
  localAddress: string,
  path: string,
  { method = 'POST', body, token }: FromAddressOptions = {},
): Promise<Response> {
  const { port } = app.getHttpServer().address() as AddressInfo;
  const assertDocumented = documentedResponseCheck(`http://127.0.0.1:${port}`);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = {};
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const received = await new Promise<Omit<Response, 'body'>>((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path, method, localAddress, headers },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const received: Record<string, string | undefined> = {};
          for (const [name, value] of Object.entries(incoming.headers)) {
            received[name] = Array.isArray(value) ? value.join(', ') : value;
          }
          resolve({
            status: incoming.statusCode ?? 0,
            headers: received,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
  await assertDocumented({ method, url: path, ...received });
  return { ...received, body: received.text === '' ? undefined : JSON.parse(received.text) };
}

/** POSTs JSON from another loopback address (see requestFrom). */
export function postFrom(
  app: NestFastifyApplication,
  localAddress: string,
  path: string,
  body: unknown,
): Promise<Response> {
  return requestFrom(app, localAddress, path, { body });
}
