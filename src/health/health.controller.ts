import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/decorators';
import { Db } from '../database/db';
import { migrationsApplied } from '../database/migrations-applied';
import { NoRateLimit } from '../rate-limits/decorators';

@ApiTags('Health')
@NoRateLimit()
@Controller('health')
export class HealthController {
  constructor(private readonly db: Db) {}

  /** Liveness: the process answers. No database. */
  @Get()
  @Public()
  @HttpCode(200)
  live() {
    return { status: 'ok' };
  }

  /** Readiness: the database answers and every migration is applied. */
  @Get('ready')
  @Public()
  async ready(@Res({ passthrough: true }) res: FastifyReply) {
    try {
      if (await migrationsApplied(this.db)) return { status: 'ready' };
      void res.status(503);
      return { status: 'migrations pending' };
    } catch {
      void res.status(503);
      return { status: 'database unreachable' };
    }
  }
}
