import 'reflect-metadata';
import { Injectable, Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Writable } from 'node:stream';
import { createLogger, NestPinoLogger } from './logger';

/** Drives Nest's own `Logger` class through a tiny Nest application whose logger is ours, writing JSON to a captured stream. */

@Injectable()
class PaymentsLike {
  readonly logger = new Logger('PaymentsService');
}

@Module({ providers: [PaymentsLike] })
class TinyModule {}

async function tinyApp(level = 'info') {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      cb();
    },
  });
  const pino = createLogger(level, stream);
  const app = await NestFactory.createApplicationContext(TinyModule, { logger: new NestPinoLogger(pino) });
  return { app, lines, logger: app.get(PaymentsLike).logger, flush: () => pino.flush() };
}

describe('NestPinoLogger through Nest’s Logger', () => {
  it('keeps the object’s fields, the message and the context of logger.warn({ paymentId }, message)', async () => {
    const { app, lines, logger } = await tinyApp();
    logger.warn({ paymentId: 'pay_1', bank: 'masrivi' }, 'bank call failed');
    await app.close();
    expect(lines.find((l) => l.msg === 'bank call failed')).toMatchObject({
      level: 40,
      msg: 'bank call failed',
      paymentId: 'pay_1',
      bank: 'masrivi',
      context: 'PaymentsService',
    });
  });

  it('serialises { err } with pino’s error serializer (type, message, stack) beside the message', async () => {
    const { app, lines, logger } = await tinyApp();
    logger.error({ err: new TypeError('socket hang up'), requestId: 'req-1' }, 'unhandled error');
    await app.close();
    const line = lines.find((l) => l.msg === 'unhandled error');
    expect(line).toMatchObject({ level: 50, context: 'PaymentsService', requestId: 'req-1' });
    expect(line!.err).toMatchObject({ type: 'TypeError', message: 'socket hang up' });
    expect((line!.err as { stack: string }).stack).toContain('TypeError: socket hang up\n    at ');
  });

  it('logs an Error given as the message under err, with its message as msg', async () => {
    const { app, lines, logger } = await tinyApp();
    logger.error(new Error('disk on fire'));
    await app.close();
    const line = lines.find((l) => l.msg === 'disk on fire');
    expect(line).toMatchObject({
      level: 50,
      context: 'PaymentsService',
      err: { type: 'Error', message: 'disk on fire' },
    });
  });

  it('keeps plain messages, Nest’s error(message, stack) and the context', async () => {
    const { app, lines, logger } = await tinyApp();
    const stack = new Error('boom').stack!;
    logger.log('reconciled 3 payments');
    logger.error('job failed', stack);
    logger.error('no stack given');
    await app.close();
    expect(lines.find((l) => l.msg === 'reconciled 3 payments')).toEqual(
      expect.objectContaining({ level: 30, context: 'PaymentsService' }),
    );
    expect(lines.find((l) => l.msg === 'job failed')).toMatchObject({
      level: 50,
      context: 'PaymentsService',
      stack,
    });
    expect(lines.find((l) => l.msg === 'no stack given')).toMatchObject({
      level: 50,
      context: 'PaymentsService',
    });
  });

  it('puts Nest’s start-up chatter (module wiring, route table) at debug, not info', async () => {
    const quiet = await tinyApp('info');
    await quiet.app.close();
    expect(quiet.lines.filter((l) => l.context === 'InstanceLoader' || l.context === 'NestFactory')).toEqual(
      [],
    );

    const verbose = await tinyApp('debug');
    await verbose.app.close();
    const wiring = verbose.lines.filter((l) => l.context === 'InstanceLoader');
    expect(wiring.length).toBeGreaterThan(0);
    for (const line of wiring) expect(line.level).toBe(20);
  });
});

describe('createLogger', () => {
  function capture() {
    const out: string[] = [];
    return {
      out,
      stream: new Writable({ write: (chunk: Buffer, _enc, cb) => (out.push(chunk.toString()), cb()) }),
    };
  }

  it('writes JSON lines to a given stream unless pretty is asked for', () => {
    const json = capture();
    createLogger('info', json.stream).info({ requestId: 'r1' }, 'hello');
    expect(JSON.parse(json.out.join(''))).toMatchObject({ level: 30, msg: 'hello', requestId: 'r1' });

    const pretty = capture();
    createLogger('info', pretty.stream, 'pretty').info({ requestId: 'r1' }, 'hello');
    expect(pretty.out.join('')).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}hello requestId=r1\n$/);
  });
});
