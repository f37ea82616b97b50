import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from '../errors/app-error';
import { Messages } from '../errors/messages';
import { ValidationFailed } from '../validation/validation-body';

export function sendText(res: Response, status: number, body: string): void {
  res.status(status).type('text/plain; charset=utf-8').send(body);
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
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    if (res.headersSent) {
      this.logger.error({ err: error, requestId: req.id }, 'error after the response was sent');
      return;
    }
    if (error instanceof AppError) return sendText(res, error.status, error.message);
    if (error instanceof ValidationFailed) return sendText(res, 422, JSON.stringify(error.body));
    if (error instanceof HttpException) {
      const status = error.getStatus();
      if (status === 404) return sendText(res, 404, Messages.notFound);
      if (status < 500) return sendText(res, status, error.message);
    }
    this.logger.error({ err: error, requestId: req.id }, 'unhandled error');
    sendText(res, 500, Messages.internal);
  }
}
