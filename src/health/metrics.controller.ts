import { Controller, Get, Headers, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { Public } from '../auth/decorators';
import { CommonError, commonError } from '../common/errors/common-errors';
import { Metrics } from '../common/metrics/metrics';
import { AppConfig } from '../config/config';
import { Db } from '../database/db';
import { NoRateLimit } from '../rate-limits/decorators';
import { WebhooksService } from '../webhooks/webhooks.service';
import { HealthError, healthError } from './health.errors';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * `GET /metrics`, Prometheus's text format, for whoever holds `METRICS_TOKEN` (docs/architecture.md,
 * "Metrics and traces"). Without the setting the route does not exist (404).
 */
@ApiExcludeController()
@NoRateLimit()
@Controller('metrics')
export class MetricsController {
  private readonly token?: Buffer;

  constructor(
    private readonly metrics: Metrics,
    config: AppConfig,
    db: Db,
    webhooks: WebhooksService,
  ) {
    if (config.METRICS_TOKEN) this.token = digest(config.METRICS_TOKEN);
    metrics.onScrape(() => {
      const { totalCount, idleCount, waitingCount } = db.pool;
      metrics.dbPool.set({ state: 'active' }, totalCount - idleCount);
      metrics.dbPool.set({ state: 'idle' }, idleCount);
      metrics.dbPool.set({ state: 'waiting' }, waitingCount);
    });
    const replica = db.replica;
    if (replica)
      metrics.onScrape(async () => {
        const lag = await replica.measureLag();
        if (lag === null) metrics.dbReplicaLag.reset();
        else metrics.dbReplicaLag.set(lag);
      });
    metrics.onScrape(async () => metrics.outboxPending.set(await webhooks.countPendingDeliveries()));
  }

  @Get()
  @Public()
  async scrape(
    @Headers('authorization') authorization: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<string> {
    if (!this.token) throw commonError(CommonError.NotFound);
    const given = /^Bearer (.+)$/.exec(authorization?.trim() ?? '')?.[1];
    // Compared as digests: same length, constant time.
    if (!given || !timingSafeEqual(digest(given), this.token))
      throw healthError(HealthError.InvalidMetricsToken);
    const { contentType, body } = await this.metrics.render();
    void res.header('content-type', contentType).header('cache-control', 'no-store');
    return body;
  }
}
