import { Global, Module } from '@nestjs/common';
import { Clock } from './clock';

/** The one Clock of the application (rate limits, subscription changes): a test moves it for all. */
@Global()
@Module({ providers: [Clock], exports: [Clock] })
export class ClockModule {}
