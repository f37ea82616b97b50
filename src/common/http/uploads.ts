import fastifyMultipart from '@fastify/multipart';
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Messages } from '../errors/messages';

/** A file of a multipart form, read whole (at most the route's limit: `truncated` says it was over). */
export interface UploadedFile {
  filename: string;
  /** As the browser declared it: never trusted (a file is what its bytes say). */
  declaredType: string;
  data: Buffer;
  truncated: boolean;
}

/** The largest file a form may carry, and how many. */
export const UPLOAD_LIMITS = { fileSize: 5 * 1024 * 1024, files: 2, fields: 40, fieldSize: 4096 };

/**
 * Multipart forms, only on the pages that take files (`paths`); every other route answers such a
 * body 415 as before. The form's fields become a plain object of strings, as url-encoded forms do
 * (so the CSRF check and `field()` read them alike), and its files `UploadedFile`s, read before the
 * handler runs: a file over the limit is cut at the limit and marked `truncated`, for the form to
 * refuse.
 */
export async function registerUploads(app: NestFastifyApplication, paths: readonly string[]): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', (req, reply, done) => {
    const multipart = (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/');
    const path = req.url.split('?')[0];
    if (multipart && !paths.includes(path)) {
      void reply.code(415).type('text/plain; charset=utf-8').send(Messages.unsupportedMediaType);
      return;
    }
    done();
  });
  await app.register(fastifyMultipart, {
    attachFieldsToBody: true,
    throwFileSizeLimit: false,
    limits: UPLOAD_LIMITS,
    async onFile(part: MultipartFile & { value?: UploadedFile }) {
      const data = await part.toBuffer();
      part.value = {
        filename: part.filename,
        declaredType: part.mimetype,
        data,
        truncated: part.file.truncated,
      };
    },
  });
  fastify.addHook('preValidation', async (req) => {
    if (!req.isMultipart()) return;
    const parts = (req.body ?? {}) as Record<string, MultipartValue | MultipartValue[]>;
    const flat: Record<string, unknown> = {};
    for (const [name, part] of Object.entries(parts)) {
      const first = Array.isArray(part) ? part[0] : part;
      flat[name] = first?.value;
    }
    req.body = flat;
  });
}
