import { Module } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { AccountService } from './account.service';
import { DocumentCipher } from './document-cipher';
import { GoLiveService } from './go-live.service';
import { GoingLiveRepository } from './going-live.repository';
import { OrganizationController } from './organization.controller';

/**
 * An organization's standing for Production: GET /organization, its changes and their event, and
 * the owner's application with its sealed documents.
 */
@Module({
  controllers: [OrganizationController],
  providers: [
    AccountService,
    GoingLiveRepository,
    GoLiveService,
    {
      provide: DocumentCipher,
      useFactory: (config: AppConfig) => DocumentCipher.fromConfig(config),
      inject: [AppConfig],
    },
  ],
  exports: [AccountService, GoLiveService, DocumentCipher],
})
export class GoingLiveModule {}
