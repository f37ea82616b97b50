import type { INestApplication, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { ResponseObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { errorEntry } from '../errors/app-error';
import { CommonError } from '../errors/common-errors';

/**
 * The error answers of each operation of the OpenAPI document (docs/architecture.md "Errors"), by
 * code: a route names the codes only it can answer, once, with `@ApiErrors(...)`; the answers
 * every route shares are added here by kind of route. Each status lists its exact messages.
 */

const API_ERRORS = 'khoums:api-errors';

/**
 * The codes of `<module>.errors.ts` a route answers besides what every route answers (on a
 * controller: each of its routes). Not needed for: 404 `Not found`, 429, 503, the API key's 401
 * and 403, 422 on a route that takes input, a body's 400/413/415, an Idempotency-Key's errors, 500.
 */
export function ApiErrors(...codes: string[]): ClassDecorator & MethodDecorator {
  for (const code of codes) errorEntry(code); // an unknown code fails when the route is declared
  return (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    const on = (descriptor?.value ?? target) as object;
    const known = (Reflect.getMetadata(API_ERRORS, on) as string[] | undefined) ?? [];
    Reflect.defineMetadata(API_ERRORS, [...known, ...codes], on);
  };
}

/** What the document needs to know of a route to list the answers every route of its kind shares. */
export interface RouteHandler {
  controller: Type;
  handler: Function;
}

/** The API's routes (as the document writes them, `post /api/v1/payment/{id}`) and their handlers. */
function routeHandlers(app: INestApplication): Map<string, RouteHandler> {
  const routes = new Map<string, RouteHandler>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller) continue;
      const base = [Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined].flat();
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || name === 'constructor') continue;
        const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (paths === undefined || method === undefined) continue;
        for (const prefix of base)
          for (const path of [paths].flat())
            routes.set(`${RequestMethod[method].toLowerCase()} ${documentPath(prefix, path)}`, {
              controller,
              handler: handler,
            });
      }
    }
  }
  return routes;
}

function documentPath(...parts: Array<string | undefined>): string {
  const joined = `/${parts.filter(Boolean).join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
  return joined.replace(/:(\w+)/g, '{$1}');
}

/** The 422 body (docs/api.md "Errors"), JSON sent as text/plain. */
const VALIDATION_BODY: SchemaObject = {
  type: 'object',
  description: 'JSON, sent as text/plain: every input that failed validation.',
  required: ['type', 'on', 'property', 'message', 'summary', 'expected', 'errors'],
  properties: {
    type: { type: 'string', enum: ['validation'] },
    on: { type: 'string', enum: ['body', 'query', 'params'] },
    property: { type: 'string', description: 'A JSON pointer to the first failing input, e.g. `/amount`.' },
    message: { type: 'string' },
    summary: { type: 'string' },
    expected: { type: 'object' },
    found: { description: 'The value received (a secret is `[redacted]`).' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['property', 'message', 'summary'],
        properties: {
          property: { type: 'string' },
          message: { type: 'string' },
          summary: { type: 'string' },
          expected: { type: 'string' },
          found: {},
        },
      },
    },
  },
};

const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', minimum: 1 },
  },
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A text/plain message's schema: the fixed messages as an enum, a message naming a value as a pattern. */
function messagesSchema(messages: Array<string | ((arg: string) => string)>): SchemaObject {
  const fixed = [...new Set(messages.filter((m): m is string => typeof m === 'string'))].sort();
  const patterns = messages
    .filter((m): m is (arg: string) => string => typeof m === 'function')
    .map((m) => `^${m('\u0000').split('\u0000').map(escapeRegExp).join('.*')}$`);
  const options: SchemaObject[] = [
    ...(fixed.length ? [{ type: 'string', enum: fixed }] : []),
    ...[...new Set(patterns)].map((pattern) => ({ type: 'string', pattern })),
  ];
  return options.length === 1 ? options[0] : { type: 'string', anyOf: options };
}

function listed(messages: Array<string | ((arg: string) => string)>): string {
  return messages.map((m) => `\`${typeof m === 'string' ? m : m('…')}\``).join(', ');
}

/** The error answers of a list of codes, one response per status. */
export function errorResponses(codes: string[], validates: boolean): Record<string, ResponseObject> {
  const byStatus = new Map<number, Array<string | ((arg: string) => string)>>();
  for (const code of new Set(codes)) {
    const [status, message] = errorEntry(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), message]);
  }
  const responses: Record<string, ResponseObject> = {};
  for (const [status, messages] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[status] = {
      description: listed(messages),
      content: { 'text/plain': { schema: messagesSchema(messages) } },
      ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
    };
  }
  if (validates)
    responses[422] = {
      description: 'An input of the wrong type or shape: the validation body, as text/plain.',
      content: { 'text/plain': { schema: VALIDATION_BODY } },
    };
  return responses;
}

/** What every route answers, whatever it does. */
const EVERY_ROUTE = [
  CommonError.MalformedUrl,
  CommonError.UriTooLong,
  CommonError.NotFound,
  CommonError.TooManyRequests,
  CommonError.Internal,
  CommonError.ServiceUnavailable,
];
/** What a route that reads a body answers about the body itself. */
const BODY = [CommonError.MalformedJson, CommonError.PayloadTooLarge, CommonError.UnsupportedMediaType];

/**
 * Adds to every operation of the API its error answers: the codes its route declares with
 * `@ApiErrors` (and its controller's), those `byKind` gives for the route (the API key's refusals,
 * an Idempotency-Key's errors), and those every route of its kind shares (above).
 */
export function documentErrors(
  app: INestApplication,
  document: OpenAPIObject,
  byKind: (route: RouteHandler, method: string) => string[],
): OpenAPIObject {
  const routes = routeHandlers(app);
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/api/v1/')) continue;
    for (const method of ['get', 'post', 'patch', 'put', 'delete'] as const) {
      const op = item[method];
      if (!op) continue;
      const route = routes.get(`${method} ${path}`);
      if (!route) throw new Error(`No handler found for the document's ${method.toUpperCase()} ${path}`);
      const declared = [
        ...((Reflect.getMetadata(API_ERRORS, route.controller) as string[] | undefined) ?? []),
        ...((Reflect.getMetadata(API_ERRORS, route.handler) as string[] | undefined) ?? []),
      ];
      // Fastify reads the body of any request but a GET's, whether or not the route uses it.
      const codes = [
        ...EVERY_ROUTE,
        ...(method === 'get' ? [] : BODY),
        ...byKind(route, method),
        ...declared,
      ];
      const validates = !!op.requestBody || (op.parameters ?? []).some((p) => 'in' in p && p.in !== 'header');
      op.responses = { ...op.responses, ...errorResponses(codes, validates) };
    }
  }
  return document;
}
