import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AdminModule } from './admin/admin.module';
import { ApiKeyGuard } from './auth/api-key.guard';
import { BillingModule } from './billing/billing.module';
import { CheckoutModule } from './checkout/checkout.module';
import { ErrorFilter } from './common/http/error.filter';
import { Metrics } from './common/metrics/metrics';
import { CouponsModule } from './coupons/coupons.module';
import { TransferGatewayModule } from './transfer-gateway/transfer-gateway.module';
import { TransfersModule } from './transfers/transfers.module';
import { CustomersModule } from './customers/customers.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { Views } from './common/http/views';
import { ValidationPipe } from './common/validation/validation-pipe';
import { AppConfig } from './config/config';
import { DatabaseModule } from './database/database.module';
import { GoingLiveModule } from './going-live/going-live.module';
import { HealthController } from './health/health.controller';
import { MetricsController } from './health/metrics.controller';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { InvoicesModule } from './invoices/invoices.module';
import { LedgerModule } from './ledger/ledger.module';
import { OrganizationsModule } from './organizations/organizations.module';
import { PaymentLinksModule } from './payment-links/payment-links.module';
import { PaymentRequestsModule } from './payment-requests/payment-requests.module';
import { PaymentsModule } from './payments/payments.module';
import { PayoutsModule } from './payouts/payouts.module';
import { PortalModule } from './portal/portal.module';
import { PlatformsModule } from './platforms/platforms.module';
import { PricesModule } from './prices/prices.module';
import { ProductsModule } from './products/products.module';
import { RateLimitsModule } from './rate-limits/rate-limits.module';
import { ClockModule } from './common/clock.module';
import { SubscriptionsModule } from './subscriptions/subscriptions.module';
import { WebhooksModule } from './webhooks/webhooks.module';

export interface AppModuleOptions {
  config: AppConfig;
  databaseUrl: string;
  /** More modules (tests add routes of their own, e.g. to show a mechanism covers any route). */
  modules?: Type[];
}

/** The top of the module graph (docs/architecture.md): every domain module, and what they all share. */
@Module({})
export class AppModule {
  static forRoot({ config, databaseUrl, modules = [] }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      // AppConfig, the compiled views and the metrics are injectable in every module.
      global: true,
      exports: [AppConfig, Views, Metrics],
      imports: [
        DatabaseModule.forRoot({
          url: databaseUrl,
          directUrl: config.DATABASE_DIRECT_URL,
          poolSize: config.DB_POOL_SIZE,
          queryTimeoutMs: config.DB_QUERY_TIMEOUT_MS,
          readUrl: config.DATABASE_READ_URL,
          readMaxLagMs: config.DATABASE_READ_MAX_LAG_MS,
          preparedStatements: config.preparedStatements,
        }),
        ClockModule,
        OrganizationsModule,
        WebhooksModule,
        PaymentRequestsModule,
        PaymentsModule,
        TransfersModule,
        TransferGatewayModule,
        CheckoutModule,
        PaymentLinksModule,
        ProductsModule,
        PricesModule,
        CustomersModule,
        CouponsModule,
        InvoicesModule,
        SubscriptionsModule,
        BillingModule,
        PortalModule,
        DashboardModule,
        GoingLiveModule,
        AdminModule,
        IdempotencyModule,
        RateLimitsModule,
        PlatformsModule,
        LedgerModule,
        PayoutsModule,
        ...modules,
      ],
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: AppConfig, useValue: config },
        Views,
        Metrics,
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_PIPE, useClass: ValidationPipe },
        { provide: APP_GUARD, useClass: ApiKeyGuard },
      ],
    };
  }
}
