import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';

/** The request header that makes a retry safe (docs/api.md "Safe retries: Idempotency-Key"). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** A route handler, as the wrapper of `RunsOncePerKey` hands it over. */
export interface KeyedRoute {
  /** The function Nest registered (its metadata: status code, decorators). */
  handler: object;
  /** Runs the route's own code (its parameters already resolved, validated and guarded). */
  invoke: () => Promise<unknown>;
}

/** What runs a request that carries an Idempotency-Key (the idempotency module implements it). */
export interface KeyedRequestRunner {
  run(req: FastifyRequest, reply: FastifyReply, route: KeyedRoute): Promise<unknown>;
}

interface Scope {
  req: FastifyRequest;
  reply: FastifyReply;
  runner: KeyedRequestRunner;
}

const scope = new AsyncLocalStorage<Scope>();

/**
 * A Fastify preHandler: a request carrying an Idempotency-Key is handled inside a scope naming it
 * and its runner, which the handlers declared with `Post`, `Patch` or `Delete` (src/common/http/routes.ts) hand
 * themselves to. A request without the header costs one header look-up here and one there: the
 * mechanism is free for those who do not use it.
 */
export function idempotencyScope(runner: KeyedRequestRunner): preHandlerHookHandler {
  return (req, reply, done) => {
    if (req.headers[IDEMPOTENCY_HEADER] === undefined) return done();
    // `done` goes on to the route's handler synchronously: its whole run inherits the scope.
    scope.run({ req, reply, runner }, () => done());
  };
}

export const ONCE_PER_KEY = 'khoums:once-per-key';

/**
 * Method decorator of every API POST, PATCH and DELETE (applied by `Post`, `Patch`, `Delete`): when the request
 * carries an Idempotency-Key, the handler runs through the scope's runner instead of directly.
 * The decorators already applied keep their metadata (copied onto the wrapper).
 */
export function RunsOncePerKey(): MethodDecorator {
  return (_target, _key, descriptor: PropertyDescriptor) => {
    const original = descriptor.value as (...args: unknown[]) => unknown;
    const wrapper = function (this: unknown, ...args: unknown[]): unknown {
      const current = scope.getStore();
      if (!current) return original.apply(this, args);
      return current.runner.run(current.req, current.reply, {
        handler: wrapper,
        invoke: async () => original.apply(this, args),
      });
    };
    for (const metadataKey of Reflect.getOwnMetadataKeys(original))
      Reflect.defineMetadata(metadataKey, Reflect.getOwnMetadata(metadataKey, original), wrapper);
    Reflect.defineMetadata(ONCE_PER_KEY, true, wrapper);
    Object.defineProperty(wrapper, 'name', { value: original.name });
    descriptor.value = wrapper;
    return descriptor;
  };
}
