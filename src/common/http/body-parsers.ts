import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { Messages } from '../errors/messages';
import { sendText } from './error.filter';

/**
 * JSON and form bodies, with CONTRACT.md's answers for what the parsers reject:
 * malformed JSON is 400 `Malformed JSON body`, and an empty body (also with a JSON
 * content-type) is `{}`.
 */
export function bodyParsers(limit = '100kb'): RequestHandler[] {
  const parsers = [express.json({ limit, strict: false }), express.urlencoded({ extended: false, limit })];
  return parsers.map(
    (parser): RequestHandler =>
      (req: Request, res: Response, next: NextFunction) =>
        parser(req, res, (err?: unknown) => {
          if (!err) return next();
          const type = (err as { type?: string }).type;
          if (type === 'entity.too.large') return sendText(res, 413, Messages.payloadTooLarge);
          if (type === 'entity.parse.failed') return sendText(res, 400, Messages.malformedJson);
          return sendText(res, 400, (err as Error).message || Messages.malformedJson);
        }),
  );
}
