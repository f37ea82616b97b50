import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyGuard } from './auth/api-key.guard';
import { CheckoutModule } from './checkout/checkout.module';
import { ErrorFilter } from './common/http/error.filter';
import { ValidationPipe } from './common/validation/validation-pipe';
import { AppConfig } from './config/config';
import { dataSourceOptions } from './database/data-source';
import { Sql } from './database/sql';
import { HealthController } from './health/health.controller';
import { OrganizationsModule } from './organizations/organizations.module';
import { PaymentRequestsModule } from './payment-requests/payment-requests.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { PaymentsModule } from './payments/payments.module';

export interface AppModuleOptions {
  config: AppConfig;
  databaseUrl: string;
}

@Module({})
export class AppModule {
  static forRoot({ config, databaseUrl }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      // AppConfig is injectable in every module.
      global: true,
      exports: [AppConfig, Sql],
      imports: [
        TypeOrmModule.forRoot(dataSourceOptions(databaseUrl, config.DB_POOL_SIZE)),
        // Registered once, here: every module's @Cron/@Interval jobs share it.
        ScheduleModule.forRoot(),
        OrganizationsModule,
        PaymentRequestsModule,
        WebhooksModule,
        PaymentsModule,
        CheckoutModule,
      ],
      controllers: [HealthController],
      providers: [
        { provide: AppConfig, useValue: config },
        Sql,
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_PIPE, useClass: ValidationPipe },
        { provide: APP_GUARD, useClass: ApiKeyGuard },
      ],
    };
  }
}
