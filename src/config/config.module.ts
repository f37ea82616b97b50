import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './config';

/** Makes the validated configuration injectable in every module. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: AppConfig, useValue: config }], exports: [AppConfig] };
  }
}
