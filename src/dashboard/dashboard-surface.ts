import { Injectable, OnModuleInit } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PageRequest, PageSurface } from '../common/http/pages';
import { AppConfig } from '../config/config';
import { ServerSecrets } from '../database/server-secrets.repository';
import { DashboardRequest } from './dashboard-request';

export const DASHBOARD_LANGUAGES = ['fr', 'ar', 'en'] as const;

/**
 * The dashboard as a page surface: its cookie path, its three languages, as the hosted checkout's
 * (English when the browser asks for none: the language of the API and of its messages; the choice
 * of the language links is kept in a cookie of `/dashboard`, so it holds across every redirect of the
 * dashboard) and the CSRF key, kept in PostgreSQL so that every instance checks the tokens of every other.
 */
@Injectable()
export class DashboardSurface implements OnModuleInit {
  readonly surface: PageSurface;

  constructor(
    private readonly secrets: ServerSecrets,
    config: AppConfig,
  ) {
    this.surface = {
      path: '/dashboard',
      languages: DASHBOARD_LANGUAGES,
      languageCookie: 'khoums_dashboard_lang',
      csrfSecret: '',
      secure: config.publicUrl.startsWith('https:'),
      defaultLanguage: 'en',
    };
  }

  async onModuleInit(): Promise<void> {
    this.surface.csrfSecret = await this.secrets.get('dashboard-csrf');
  }

  /** The request's DashboardRequest, made once. */
  request(req: FastifyRequest, reply: FastifyReply): DashboardRequest {
    req.dashboard ??= new DashboardRequest(new PageRequest(this.surface, req, reply));
    return req.dashboard;
  }
}
