import { Module } from '@nestjs/common';
import { AccountService } from './account.service';
import { GoingLiveRepository } from './going-live.repository';
import { OrganizationController } from './organization.controller';

/** An organization's standing for Production: GET /organization, its changes and their event. */
@Module({
  controllers: [OrganizationController],
  providers: [AccountService, GoingLiveRepository],
  exports: [AccountService],
})
export class GoingLiveModule {}
