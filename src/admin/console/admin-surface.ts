import { Injectable, OnModuleInit } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PageRequest, PageSurface } from '../../common/http/pages';
import { AppConfig } from '../../config/config';
import { ServerSecrets } from '../../database/server-secrets.repository';
import { AdminRequest } from './admin-request';

export const ADMIN_LANGUAGES = ['fr', 'ar', 'en'] as const;

/**
 * The operators' console as a page surface of its own: cookies on the path /admin only (its
 * session, its language, its CSRF cookie), and a CSRF key of its own kept in PostgreSQL, so no
 * token of the dashboard's forms is valid here, nor one of here on the dashboard.
 */
@Injectable()
export class AdminSurface implements OnModuleInit {
  readonly surface: PageSurface;

  constructor(
    private readonly secrets: ServerSecrets,
    config: AppConfig,
  ) {
    this.surface = {
      path: '/admin',
      languages: ADMIN_LANGUAGES,
      languageCookie: 'khoums_admin_lang',
      csrfSecret: '',
      secure: config.publicUrl.startsWith('https:'),
      defaultLanguage: 'en',
    };
  }

  async onModuleInit(): Promise<void> {
    this.surface.csrfSecret = await this.secrets.get('admin-csrf');
  }

  /** The request's AdminRequest, made once. */
  request(req: FastifyRequest, reply: FastifyReply): AdminRequest {
    req.admin ??= new AdminRequest(new PageRequest(this.surface, req, reply));
    return req.admin;
  }
}
