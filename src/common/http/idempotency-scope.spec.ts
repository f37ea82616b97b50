import 'reflect-metadata';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  idempotencyScope,
  KeyedRequestRunner,
  KeyedRoute,
  ONCE_PER_KEY,
  RunsOncePerKey,
} from './idempotency-scope';

const Marked =
  (value: string): MethodDecorator =>
  (_t, _k, d: PropertyDescriptor) => {
    Reflect.defineMetadata('test:mark', value, d.value as object);
  };

class Controller {
  constructor(private readonly prefix: string) {}

  @RunsOncePerKey()
  @Marked('kept')
  async greet(name: string): Promise<string> {
    return `${this.prefix} ${name}`;
  }
}

/** Runs `fn` as Fastify would run a handler after the preHandler hook. */
function throughHook(
  headers: Record<string, string>,
  runner: KeyedRequestRunner,
  fn: () => Promise<unknown>,
) {
  return new Promise<unknown>((resolve, reject) => {
    const req = { headers } as unknown as FastifyRequest;
    idempotencyScope(runner).call(undefined as never, req, {} as FastifyReply, () => {
      fn().then(resolve, reject);
    });
  });
}

describe('RunsOncePerKey', () => {
  const runner = { run: jest.fn((_req: unknown, _reply: unknown, route: KeyedRoute) => route.invoke()) };
  afterEach(() => runner.run.mockClear());

  it('calls the handler itself, with its arguments and this, when the request has no key', async () => {
    const c = new Controller('Salam');
    expect(await throughHook({}, runner, () => c.greet('Aicha'))).toBe('Salam Aicha');
    expect(await c.greet('Moussa')).toBe('Salam Moussa');
    expect(runner.run).not.toHaveBeenCalled();
  });

  it('hands a request with a key to the runner, which may invoke the handler', async () => {
    const c = new Controller('Salam');
    expect(await throughHook({ 'idempotency-key': 'k1' }, runner, () => c.greet('Aicha'))).toBe(
      'Salam Aicha',
    );
    expect(runner.run).toHaveBeenCalledTimes(1);
    const route = runner.run.mock.calls[0][2];
    expect(route.handler).toBe(Controller.prototype.greet);
  });

  it("keeps the metadata the handler's other decorators gave it, and marks it", () => {
    expect(Reflect.getMetadata('test:mark', Controller.prototype.greet)).toBe('kept');
    expect(Reflect.getMetadata(ONCE_PER_KEY, Controller.prototype.greet)).toBe(true);
    expect(Controller.prototype.greet.name).toBe('greet');
  });
});
