import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { isPublicAddress } from './address-policy';
import { parseRetryAfter } from './retry-schedule';

export const SNIPPET_BYTES = 1024;
export const NON_PUBLIC_ADDRESS = 'Webhook URL resolves to a non-public address';

export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseSnippet: string | null;
  retryAfterMs: number | null;
}

/**
 * Resolves like the system resolver, then refuses when any address is not public. Connecting to
 * the address that was checked (rather than resolving twice) closes the DNS-rebinding gap.
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address))) {
      return callback(Object.assign(new Error(NON_PUBLIC_ADDRESS), { code: 'ENONPUBLIC' }), '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

/** Keep-alive pools; separate ones for guarded requests so a socket opened unchecked is never reused for a checked host. */
const agentOptions = { keepAlive: true, maxSockets: 256, scheduling: 'lifo' as const };
const agents = {
  open: { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) },
  guarded: { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) },
};

export function destroyAgents(): void {
  for (const group of Object.values(agents)) for (const a of Object.values(group)) a.destroy();
}

export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  timeoutMs: number;
  /** Unless WEBHOOK_ALLOW_PRIVATE_URLS: only public addresses, checked on the resolved ones. */
  publicOnly: boolean;
}

/** One attempt: resolves (never rejects) with what happened, the time-out included. */
export function postWebhook(o: PostOptions): Promise<AttemptResult> {
  const started = process.hrtime.bigint();
  const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
  const failed = (error: string): AttemptResult => ({
    statusCode: null,
    error,
    responseSnippet: null,
    retryAfterMs: null,
    durationMs: elapsed(),
  });

  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    return Promise.resolve(failed('Invalid URL'));
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // IP literals are connected to without a lookup, so they are checked here.
  if (o.publicOnly && isIP(host) && !isPublicAddress(host))
    return Promise.resolve(failed(NON_PUBLIC_ADDRESS));

  return new Promise((resolve) => {
    let settled = false;
    const isHttps = url.protocol === 'https:';
    const group = o.publicOnly ? agents.guarded : agents.open;
    const req = (isHttps ? https : http).request(url, {
      method: 'POST',
      headers: { ...o.headers, 'content-length': String(o.body.length) },
      agent: isHttps ? group.https : group.http,
      ...(o.publicOnly ? { lookup: publicOnlyLookup } : {}),
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish(failed(`Timed out after ${o.timeoutMs} ms`));
    }, o.timeoutMs);
    const finish = (r: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };

    req.on('error', (err: NodeJS.ErrnoException) => finish(failed(describeError(err))));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (chunk: Buffer) => {
        if (kept < SNIPPET_BYTES) {
          chunks.push(chunk.subarray(0, SNIPPET_BYTES - kept));
          kept += Math.min(chunk.length, SNIPPET_BYTES - kept);
        }
      });
      res.on('error', (err) => finish({ ...failed(describeError(err)), statusCode: res.statusCode ?? null }));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        finish({
          statusCode: status,
          error: ok ? null : `HTTP ${status}`,
          responseSnippet: chunks.length ? textSafe(Buffer.concat(chunks).toString('utf8')) : null,
          retryAfterMs: ok ? null : parseRetryAfter(res.headers['retry-after']),
          durationMs: elapsed(),
        });
      });
    });
    req.end(o.body);
  });
}

function describeError(err: NodeJS.ErrnoException): string {
  if (err.message === NON_PUBLIC_ADDRESS) return NON_PUBLIC_ADDRESS;
  return textSafe(err.code ? `${err.code}: ${err.message}` : err.message).slice(0, 500);
}

/** PostgreSQL text cannot hold NUL. */
function textSafe(s: string): string {
  return s.replaceAll('\u0000', '');
}
