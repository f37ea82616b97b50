import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { ApiKeyGuard } from './auth/api-key.guard';
import { CheckoutModule } from './checkout/checkout.module';
import { ErrorFilter } from './common/http/error.filter';
import { requestId } from './common/http/request-id';
import { ValidationPipe } from './common/validation/validation-pipe';
import { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { dataSourceOptions } from './database/data-source';
import { HealthController } from './health/health.controller';
import { OrganizationsModule } from './organizations/organizations.module';
import { PaymentRequestsModule } from './payment-requests/payment-requests.module';

export interface AppModuleOptions {
  config: AppConfig;
  databaseUrl: string;
  /** Where logs go (stdout by default); tests capture them. */
  logStream?: DestinationStream;
}

@Module({})
export class AppModule {
  static forRoot({ config, databaseUrl, logStream }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: [
            {
              level: config.LOG_LEVEL,
              genReqId: requestId,
              customAttributeKeys: { reqId: 'requestId' },
              redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], remove: true },
              serializers: {
                req: (req: { id: string; method: string; url: string }) => ({ method: req.method, url: req.url }),
                res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
              },
              customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
            },
            logStream ?? process.stdout,
          ],
        }),
        ConfigModule.forRoot(config),
        TypeOrmModule.forRoot(dataSourceOptions(databaseUrl, config.DB_POOL_SIZE)),
        // Registered once, here: every module's @Cron/@Interval jobs share it.
        ScheduleModule.forRoot(),
        OrganizationsModule,
        PaymentRequestsModule,
        CheckoutModule,
      ],
      controllers: [HealthController],
      providers: [
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_PIPE, useClass: ValidationPipe },
        { provide: APP_GUARD, useClass: ApiKeyGuard },
      ],
    };
  }
}
