import { once } from 'node:events';
import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Hit {
  headers: IncomingHttpHeaders;
  /** The bytes exactly as received. */
  raw: Buffer;
  body: { id: string; event: string; createdAt: string; data: Record<string, unknown> };
  at: number;
}

/** What the receiver does with the n-th request (0-based). `hang` never answers. */
export type Behaviour = (n: number, hit: Hit, res: ServerResponse) => 'hang' | void;

export const ok: Behaviour = (_n, _hit, res) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
};

/** A merchant's webhook receiver on 127.0.0.1, recording every request. */
export class Receiver {
  readonly hits: Hit[] = [];
  private server?: Server;
  private readonly open = new Set<ServerResponse>();
  behaviour: Behaviour;

  constructor(behaviour: Behaviour = ok) {
    this.behaviour = behaviour;
  }

  /** Listens on `port` (0: any free port) and returns it. */
  async start(port = 0): Promise<number> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.keepAliveTimeout = 1000;
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    this.server = server;
    return (server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/webhooks`;
  }

  hitsFor(webhookId: string): Hit[] {
    return this.hits.filter((h) => h.headers['webhook-id'] === webhookId);
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const res of this.open) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const hit: Hit = { headers: req.headers, raw, body: JSON.parse(raw.toString('utf8')), at: Date.now() };
    const n = this.hits.length;
    this.hits.push(hit);
    this.open.add(res);
    res.on('close', () => this.open.delete(res));
    if (this.behaviour(n, hit, res) === 'hang') return;
  }
}

/**
 * The settings of the test apps that run the webhook worker (each on a database of its own:
 * `startWorkerApp`): quick time-outs and retries.
 */
export const WORKER_ENV = {
  WEBHOOK_WORKER: 'true',
  WEBHOOK_TIMEOUT_MS: '1500',
  WEBHOOK_RETRY_SCHEDULE_MS: '400,800,800,800,800',
  WEBHOOK_POLL_MS: '100',
  WEBHOOK_LEASE_MS: '3000',
} as const;
