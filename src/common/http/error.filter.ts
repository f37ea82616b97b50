import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
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

/** Fastify's errors raised while it looks for the route, by their code. */
const BEFORE_ROUTING: Record<string, { status: number; message: string }> = {
  FST_ERR_BAD_URL: { status: 400, message: Messages.malformedUrl }, // malformed percent-encoding in the path
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: Messages.uriTooLong }, // a path parameter over maxParamLength
};

/**
 * Fastify's `frameworkErrors`: errors raised before routing, which neither Nest nor the hooks see
 * (so the request id header is set here). Without it Fastify answers them in JSON.
 */
export function answerFrameworkError(error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  void reply.header('x-request-id', req.id);
  const known = BEFORE_ROUTING[error.code];
  if (!known) req.log.error({ err: error, requestId: req.id }, 'error before routing');
  const statusCode = known?.status ?? 500;
  sendText(reply, statusCode, known?.message ?? Messages.internal);
  // The onResponse hook does not run for these: the request line is written here (the URL cut short, it may be huge).
  const url = req.url.length > 200 ? `${req.url.slice(0, 200)}…` : req.url;
  req.log.info({ method: req.method, url, statusCode }, 'request');
}

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
    if (error instanceof AppError) return sendText(reply, error.status, error.message);
    if (error instanceof ValidationFailed) return sendText(reply, 422, JSON.stringify(error.body));
    if (error instanceof HttpException) {
      const status = error.getStatus();
      if (status < 500) return sendText(reply, status, FRAMEWORK_MESSAGES[status] ?? error.message);
    }
    this.logger.error({ err: error, requestId: req.id }, 'unhandled error');
    sendText(reply, 500, Messages.internal);
  }
}
