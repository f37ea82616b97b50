import { once } from 'node:events';
import { createServer, IncomingMessage, request, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Khoums, type ClientOptions } from '../../sdk/src';
import type { TestApp } from '../helpers/app';
import { OpenApiDocument, OpenApiSchema, refName, routesOf, typeName } from './openapi-types';

/** The API's base URL for the client library (`{base_url}`). */
export function baseUrlOf(t: TestApp): string {
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}/api/v1`;
}

export const noWait = { sleep: () => Promise.resolve() } satisfies ClientOptions;

export interface Answer {
  method: string;
  url: string;
  status: number;
  body: unknown;
}

/**
 * A fetch that records every successful answer, so a suite checks each one against the OpenAPI
 * document: the fields the service sends are exactly those its record classes declare.
 */
export function recordingFetch(answers: Answer[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    if (res.ok) {
      const text = await res.clone().text();
      answers.push({
        method: init?.method ?? 'GET',
        url: res.url,
        status: res.status,
        body: JSON.parse(text),
      });
    }
    return res;
  };
}

/** The problems of `value` against `schema` (no extra properties; every required one; types; enums). */
export function schemaProblems(
  value: unknown,
  schema: OpenApiSchema,
  doc: OpenApiDocument,
  at = '$',
): string[] {
  if (schema.$ref) return schemaProblems(value, doc.components!.schemas![refName(schema.$ref)], doc, at);
  if (value === null) return schema.nullable ? [] : [`${at} is null`];
  if (schema.oneOf) {
    const fits = schema.oneOf.filter((s) => schemaProblems(value, s, doc, at).length === 0);
    return fits.length === 1 ? [] : [`${at} fits ${fits.length} of the oneOf schemas`];
  }
  if (schema.allOf) return schema.allOf.flatMap((s) => schemaProblems(value, s, doc, at));
  if (schema.enum && !schema.enum.includes(value))
    return [`${at} = ${JSON.stringify(value)} is not in the enum`];
  switch (schema.type ?? 'object') {
    case 'integer':
      return Number.isInteger(value) ? [] : [`${at} is not an integer`];
    case 'number':
      return typeof value === 'number' ? [] : [`${at} is not a number`];
    case 'string':
      return typeof value === 'string' ? [] : [`${at} is not a string`];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${at} is not a boolean`];
    case 'array':
      return Array.isArray(value)
        ? value.flatMap((v, i) => schemaProblems(v, schema.items ?? {}, doc, `${at}[${i}]`))
        : [`${at} is not an array`];
    default: {
      if (typeof value !== 'object' || Array.isArray(value)) return [`${at} is not an object`];
      if (!schema.properties) return [];
      const obj = value as Record<string, unknown>;
      const props = schema.properties;
      return [
        ...(schema.required ?? []).filter((k) => !(k in obj)).map((k) => `${at}.${k} is missing`),
        ...Object.keys(obj)
          .filter((k) => !(k in props))
          .map((k) => `${at}.${k} is not in the document`),
        ...Object.entries(obj)
          .filter(([k]) => k in props)
          .flatMap(([k, v]) => schemaProblems(v, props[k], doc, `${at}.${k}`)),
      ];
    }
  }
}

/**
 * The fields a route's answer may carry, as `Record.field` for the document's named records (by
 * their names in the library: `Subscription.startedAt`) and
 * `<route>.path.field` for the inline parts of an answer (the envelope, its pagination).
 */
export function declaredFields(doc: OpenApiDocument, route: string): Set<string> {
  const out = new Set<string>();
  const visit = (schema: OpenApiSchema, where: string, seen: Set<string>): void => {
    if (schema.$ref) {
      const name = refName(schema.$ref);
      if (seen.has(name)) return;
      return visit(doc.components!.schemas![name], typeName(name), new Set([...seen, name]));
    }
    for (const s of [...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) visit(s, where, seen);
    if (schema.items) visit(schema.items, `${where}[]`, seen);
    for (const [k, p] of Object.entries(schema.properties ?? {})) {
      out.add(`${where}.${k}`);
      visit(p, `${where}.${k}`, seen);
    }
  };
  const schema = routesOf(doc).get(route)?.responses?.['200']?.content?.['application/json']?.schema;
  if (schema) visit(schema, route, new Set());
  return out;
}

/** The fields an answer carries, named as `declaredFields` names them (adds them to `out`). */
export function presentFields(
  doc: OpenApiDocument,
  value: unknown,
  schema: OpenApiSchema,
  where: string,
  out: Set<string>,
): void {
  if (value === null || value === undefined) return;
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return presentFields(doc, value, doc.components!.schemas![name], typeName(name), out);
  }
  if (schema.oneOf) {
    const fit = schema.oneOf.find((s) => schemaProblems(value, s, doc).length === 0);
    if (fit) presentFields(doc, value, fit, where, out);
    return;
  }
  for (const s of schema.allOf ?? []) presentFields(doc, value, s, where, out);
  if (schema.items && Array.isArray(value))
    for (const item of value) presentFields(doc, item, schema.items, `${where}[]`, out);
  if (!schema.properties || typeof value !== 'object' || Array.isArray(value)) return;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (!(k in schema.properties)) continue;
    out.add(`${where}.${k}`);
    presentFields(doc, v, schema.properties[k], `${where}.${k}`, out);
  }
}

export interface Exchange {
  method: string;
  url: string;
  status: number;
  /** The parsed body of a 2xx JSON answer. */
  body?: unknown;
  /** A 2xx answer that is a document (a PDF), not JSON: its media type. */
  document?: string;
}

/** A fetch that records every request it sends, with the answer's status (and body, when 2xx). */
export function tracingFetch(exchanges: Exchange[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const exchange: Exchange = { method: init?.method ?? 'GET', url: res.url, status: res.status };
    const type = res.headers.get('content-type') ?? '';
    if (res.ok && type.startsWith('application/json')) exchange.body = JSON.parse(await res.clone().text());
    else if (res.ok) exchange.document = type;
    exchanges.push(exchange);
    return res;
  };
}

/** The document's route for a request (`GET /payment-request/{id}`), the most literal one first. */
export function routeOf(doc: OpenApiDocument, method: string, url: string): string | undefined {
  const path = new URL(url).pathname.replace(/^\/api\/v1/, '');
  const candidates = [...routesOf(doc).keys()].filter((route) => {
    const [m, template] = route.split(' ');
    const pattern = new RegExp('^' + template.replace(/\{\w+\}/g, '[^/]+') + '$');
    return m === method && pattern.test(path);
  });
  return candidates.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
}

/** Every recorded answer's problems against the document's schema of its route. */
export function answerProblems(doc: OpenApiDocument, answers: Answer[]): string[] {
  const routes = routesOf(doc);
  return answers.flatMap((a) => {
    const route = routeOf(doc, a.method, a.url);
    if (!route) return [`${a.method} ${a.url} is not in the document`];
    const schema = routes.get(route)!.responses?.['200']?.content?.['application/json']?.schema;
    if (!schema) return [`${route} has no response schema`];
    return schemaProblems(a.body, schema, doc).map((p) => `${route}: ${p}`);
  });
}

export interface ProxiedRequest {
  method: string;
  url: string;
  idempotencyKey?: string;
  /** The service's answer, once it came (also when the proxy then dropped it). */
  answer?: { status: number; replayed: boolean };
}

/** What the proxy does with a request it matches, instead of passing it on untouched. */
export type Fault =
  | { kind: 'drop-before' }
  | { kind: 'drop-after' }
  | { kind: 'answer'; status: number; body: string; contentType?: string; headers?: Record<string, string> }
  | { kind: 'delay'; ms: number };

interface Rule {
  match: (r: ProxiedRequest) => boolean;
  fault: Fault;
  times: number;
}

/**
 * A local HTTP proxy in front of the service: it drops connections (before the service sees the
 * request, or after the service answered), answers a status itself, or delays the answer, for as
 * many matching requests as told; it records every request it receives.
 */
export class FaultyProxy {
  readonly requests: ProxiedRequest[] = [];
  private readonly rules: Rule[] = [];
  private server?: Server;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly target: string) {}

  async start(): Promise<string> {
    const server = createServer((req, res) => this.handle(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    this.server = server;
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  }

  /** The next `times` requests matching `match` meet `fault`. */
  fault(fault: Fault, match: (r: ProxiedRequest) => boolean = () => true, times = 1): void {
    this.rules.push({ match, fault, times });
  }

  count(method: string, path: string): number {
    return this.requests.filter((r) => r.method === method && new URL(r.url, 'http://x').pathname === path)
      .length;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const seen: ProxiedRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
    };
    this.requests.push(seen);
    const rule = this.rules.find((r) => r.times > 0 && r.match(seen));
    if (rule) rule.times -= 1;
    const fault = rule?.fault;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (fault?.kind === 'drop-before') return void req.socket.destroy();
      if (fault?.kind === 'answer') {
        res.writeHead(fault.status, {
          'content-type': fault.contentType ?? 'text/plain; charset=utf-8',
          ...fault.headers,
        });
        return void res.end(fault.body);
      }
      const url = new URL(this.target);
      const upstream = request(
        { host: url.hostname, port: url.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (c: Buffer) => body.push(c));
          answer.on('end', () => {
            seen.answer = {
              status: answer.statusCode ?? 0,
              replayed: answer.headers['idempotent-replayed'] === 'true',
            };
            if (fault?.kind === 'drop-after') return void req.socket.destroy();
            const send = () => {
              if (res.destroyed) return;
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(Buffer.concat(body));
            };
            if (fault?.kind !== 'delay') return send();
            const timer = setTimeout(() => {
              this.timers.delete(timer);
              send();
            }, fault.ms);
            this.timers.add(timer);
          });
        },
      );
      upstream.on('error', () => req.socket.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  }
}

export function client(baseUrl: string, key: string, options: ClientOptions = {}): Khoums {
  return new Khoums(key, { baseUrl, ...options });
}

let seq = 0;
/** A transactionId no other test uses. */
export function orderId(prefix = 'order'): string {
  seq += 1;
  return `${prefix}_${process.pid}_${Date.now()}_${seq}`;
}
