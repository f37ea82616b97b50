import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request id: the caller's `x-request-id` when it is a sane token, else a new UUID; echoed on the response. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && ACCEPTABLE.test(incoming) ? incoming : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}
