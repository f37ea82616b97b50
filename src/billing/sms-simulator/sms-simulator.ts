import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An SMS gateway speaking the protocol of docs/sms-gateway.md, for the end-to-end suite and local
 * runs (`npm run sms-simulator`). It keeps the messages it accepted in memory (one per id: a
 * retried id is not sent twice), counts every request, and has fault switches (a mode, set over
 * HTTP or in-process).
 */

export const SMS_SIMULATOR_MODES = ['normal', 'error', 'error-once', 'reject', 'hang'] as const;
export type SmsSimulatorMode = (typeof SMS_SIMULATOR_MODES)[number];

export interface SimulatedSms {
  id: string;
  to: string;
  text: string;
}

export interface SmsSimulator {
  url: string;
  /** Messages accepted, in the order they arrived (a replayed id once). */
  messages(): SimulatedSms[];
  /** Requests that reached the gateway, replays and refused ones included. */
  requests(): number;
  /** Requests per message id (a replay after a lost answer counts again). */
  requestsById(): Map<string, number>;
  setMode(mode: SmsSimulatorMode): void;
  /** Milliseconds every new message waits before its answer (0 by default): a slow gateway. */
  setDelay(ms: number): void;
  reset(): void;
  close(): Promise<void>;
}

const send = (res: ServerResponse, status: number, body: object) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      try {
        resolve(JSON.parse(raw));
      } catch {
        resolve(undefined);
      }
    });
  });
}

/**
 * Modes: `normal` accepts; `error` answers 503 to every message; `error-once` answers 503 to the
 * first attempt of each id, then accepts it; `reject` answers 400; `hang` never answers.
 */
export async function startSmsSimulator(
  options: { port?: number; host?: string; apiKey?: string } = {},
): Promise<SmsSimulator> {
  let mode: SmsSimulatorMode = 'normal';
  let requests = 0;
  let delayMs = 0;
  const requestsById = new Map<string, number>();
  const accepted = new Map<string, SimulatedSms>();
  const failedOnce = new Set<string>();
  const hanging = new Set<ServerResponse>();

  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method === 'POST' && req.url === '/_control/mode') {
        const body = (await readJson(req)) as { mode?: unknown } | undefined;
        if (!SMS_SIMULATOR_MODES.includes(body?.mode as SmsSimulatorMode))
          return send(res, 400, { error: 'mode' });
        mode = body!.mode as SmsSimulatorMode;
        return send(res, 200, { mode });
      }
      if (req.method !== 'POST' || req.url !== '/messages') return send(res, 404, { error: 'not found' });
      requests++;
      if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`)
        return send(res, 401, { error: 'unauthorized' });
      const body = (await readJson(req)) as Partial<SimulatedSms> | undefined;
      if (
        typeof body?.id !== 'string' ||
        typeof body.to !== 'string' ||
        !/^\+222[234]\d{7}$/.test(body.to) ||
        typeof body.text !== 'string' ||
        body.text.length === 0
      )
        return send(res, 400, { error: 'invalid message' });
      requestsById.set(body.id, (requestsById.get(body.id) ?? 0) + 1);
      if (delayMs > 0 && !accepted.has(body.id)) await new Promise((r) => setTimeout(r, delayMs));
      const known = accepted.get(body.id);
      if (known) return send(res, 200, { id: known.id, status: 'accepted' });
      switch (mode) {
        case 'hang':
          hanging.add(res);
          res.on('close', () => hanging.delete(res));
          return;
        case 'error':
          return send(res, 503, { error: 'unavailable' });
        case 'reject':
          return send(res, 400, { error: 'rejected' });
        case 'error-once':
          if (!failedOnce.has(body.id)) {
            failedOnce.add(body.id);
            return send(res, 503, { error: 'unavailable' });
          }
          break;
        case 'normal':
          break;
      }
      accepted.set(body.id, { id: body.id, to: body.to, text: body.text });
      return send(res, 200, { id: body.id, status: 'accepted' });
    })();
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    messages: () => [...accepted.values()],
    requests: () => requests,
    requestsById: () => new Map(requestsById),
    setMode: (m) => (mode = m),
    setDelay: (ms) => (delayMs = ms),
    reset: () => {
      mode = 'normal';
      requests = 0;
      delayMs = 0;
      requestsById.clear();
      accepted.clear();
      failedOnce.clear();
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
