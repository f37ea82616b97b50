import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { AppError } from '../errors/app-error';
import { CommonError, commonError } from '../errors/common-errors';
import { isDatabaseUnavailable, serviceUnavailable } from '../errors/database-unavailable';
import { Messages } from '../errors/messages';
import { ValidationFailed } from '../validation/validation-body';

export function sendText(reply: FastifyReply, status: number, body: string): void {
  void reply.status(status).header('content-type', 'text/plain; charset=utf-8').send(body);
}

/** An AppError as text, with its status and headers (`Retry-After`). */
export function sendAppError(reply: FastifyReply, error: AppError): void {
  for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
  sendText(reply, error.status, error.message);
}

/**
 * A refusal raised by a Fastify plugin rather than by Nest (an `http-errors` error with a 4xx
 * `statusCode`): the API documentation's static files answer 403 for a path that climbs out of
 * their folder and 404 for a missing file. Both are a path that names nothing: 404 `Not found`.
 */
function pluginRefusal(error: unknown): CommonError | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return status === 403 || status === 404 ? CommonError.NotFound : undefined;
}

/** Fastify's own 4xx errors (raised before a handler runs, seen here as HttpExceptions), as the API's errors. */
const FRAMEWORK_ERRORS: Record<number, CommonError> = {
  404: CommonError.NotFound,
  413: CommonError.PayloadTooLarge,
  415: CommonError.UnsupportedMediaType,
};

/** Fastify's errors raised while it looks for the route, by their code. */
const BEFORE_ROUTING: Record<string, CommonError> = {
  FST_ERR_BAD_URL: CommonError.MalformedUrl, // malformed percent-encoding in the path
  FST_ERR_MAX_PARAM_LENGTH: CommonError.UriTooLong, // a path parameter over maxParamLength
};

/**
 * Fastify's `frameworkErrors`: errors raised before routing, which neither Nest nor the hooks see
 * (so the headers every response carries are set here). Without it Fastify answers them in JSON.
 */
export function answerFrameworkError(error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  void reply.header('x-request-id', req.id).header('x-content-type-options', 'nosniff');
  const code = BEFORE_ROUTING[error.code];
  if (!code) req.log.error({ err: error, requestId: req.id }, 'error before routing');
  const known = code && commonError(code);
  const statusCode = known?.status ?? 500;
  sendText(reply, statusCode, known?.message ?? Messages.internal);
  // The onResponse hook does not run for these: the request line is written here (the URL cut short, it may be huge).
  const url = req.url.length > 200 ? `${req.url.slice(0, 200)}…` : req.url;
  req.log.info({ method: req.method, url, statusCode }, 'request');
}

/**
 * The only place that writes error responses: plain text for every failure, the validation JSON
 * (as text) for 422, 503 `Service unavailable` with `Retry-After` while PostgreSQL is unreachable
 * (not logged per request: the database's availability is logged once when it goes and once when
 * it returns), and `Internal server error` for anything unexpected, whose cause is logged with the
 * request id.
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
    if (error instanceof AppError) return sendAppError(reply, error);
    if (isDatabaseUnavailable(error)) return sendAppError(reply, serviceUnavailable());
    if (error instanceof ValidationFailed) return sendText(reply, 422, JSON.stringify(error.body));
    if (error instanceof HttpException) {
      const status = error.getStatus();
      const code = FRAMEWORK_ERRORS[status];
      if (code) return sendText(reply, status, commonError(code).message);
      if (status < 500) return sendText(reply, status, error.message);
    }
    const refusal = pluginRefusal(error);
    if (refusal) return sendText(reply, 404, commonError(refusal).message);
    this.logger.error({ err: error, requestId: req.id }, 'unhandled error');
    sendText(reply, 500, Messages.internal);
  }
}

/** node's limit on the request line and headers together (`--max-http-header-size`). */
const MAX_HEADER_SIZE = 16 * 1024;

/**
 * Fastify's `clientErrorHandler`: what node's HTTP parser refuses before Fastify sees a request
 * (no route, no hooks). A request line longer than the 16 KB header limit is a URL
 * over the server's limit: 414 `URI too long`, as text. Other parse errors: 400, as text.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return;
  const packet = (error as { rawPacket?: unknown }).rawPacket;
  const lineEnd = Buffer.isBuffer(packet) ? packet.indexOf('\r\n') : -1;
  const requestLineTooLong =
    error.code === 'HPE_HEADER_OVERFLOW' && (lineEnd === -1 || lineEnd > MAX_HEADER_SIZE / 2);
  const answer =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? requestLineTooLong
        ? { status: '414 URI Too Long', body: Messages.uriTooLong }
        : { status: '431 Request Header Fields Too Large', body: Messages.headersTooLarge }
      : { status: '400 Bad Request', body: Messages.badRequest };
  socket.end(
    `HTTP/1.1 ${answer.status}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(answer.body)}\r\n` +
      `x-request-id: ${randomUUID()}\r\nx-content-type-options: nosniff\r\nconnection: close\r\n\r\n${answer.body}`,
  );
}
