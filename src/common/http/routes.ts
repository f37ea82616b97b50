import {
  applyDecorators,
  Delete as NestDelete,
  HttpCode,
  Patch as NestPatch,
  Post as NestPost,
  Put as NestPut,
} from '@nestjs/common';
import { RunsOncePerKey } from './idempotency-scope';

/**
 * Every success is 200, creations included (docs/api.md "Basics"). Controllers use these instead of
 * Nest's own, whose POST default is 201. They also give every POST its Idempotency-Key (and every
 * PATCH and DELETE the check that a key a POST used is not reused on it): see `RunsOncePerKey`.
 */
export const Post = (path?: string) => applyDecorators(NestPost(path), HttpCode(200), RunsOncePerKey());
export const Patch = (path?: string) => applyDecorators(NestPatch(path), HttpCode(200), RunsOncePerKey());
/** A setting replaced whole (PUT /configuration/gimtel): PATCH's treatment. */
export const Put = (path?: string) => applyDecorators(NestPut(path), HttpCode(200), RunsOncePerKey());
export const Delete = (path?: string) => applyDecorators(NestDelete(path), RunsOncePerKey());
export const API = 'api/v1';
