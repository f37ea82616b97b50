import { applyDecorators, HttpCode, Patch as NestPatch, Post as NestPost } from '@nestjs/common';

/**
 * CONTRACT.md: every success is 200, creations included. Controllers use these instead of
 * Nest's own, whose POST default is 201.
 */
export const Post = (path?: string) => applyDecorators(NestPost(path), HttpCode(200));
export const Patch = (path?: string) => applyDecorators(NestPatch(path), HttpCode(200));
export const API = 'api/v1';
