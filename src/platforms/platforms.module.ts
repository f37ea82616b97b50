import { Module } from '@nestjs/common';
import { AccountsController } from './accounts.controller';

/** The API of platforms: `/accounts` and onboarding links (docs/platforms.md). */
@Module({ controllers: [AccountsController] })
export class PlatformsModule {}
