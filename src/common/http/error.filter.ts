import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error';
import { Messages } from '../errors/messages';
import { ValidationFailed } from '../validation/validation-body';

export function sendText(reply: FastifyReply, status: number, body: string): void {
  void reply.status(status).header('content-type', 'text/plain; charset=utf-8').send(body);
}

/** Fastify's own 4xx errors (raised before a handler runs, seen here as HttpExceptions) and the API's words for them. */
const FRAMEWORK_MESSAGES: Record<number, string> = {
  404: Messages.notFound,
  413: Messages.payloadTooLarge,
  415: Messages.unsupportedMediaType,
};

/**
 * The only place that writes error responses: plain text for every failure, the validation JSON
 * (as text) for 422, and `Internal server error` for anything unexpected, whose cause is logged
 * with the request id.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(error: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<FastifyReply>();
    const req = ctx.getRequest<FastifyRequest>();
    if (reply.sent) {
      this.logger.error({ err: error, requestId: req.id }, 'error after the response was sent');
      return;
    }
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
      return sendText(reply, error.status, error.message);
    }
    if (error instanceof ValidationFailed) return sendText(reply, 422, JSON.stringify(error.body));
    if (error instanceof HttpException) {
      const status = error.getStatus();
      if (status < 500) return sendText(reply, status, FRAMEWORK_MESSAGES[status] ?? error.message);
    }
    this.logger.error({ err: error, requestId: req.id }, 'unhandled error');
    sendText(reply, 500, Messages.internal);
  }
}
