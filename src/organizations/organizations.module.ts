import { Global, Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { ConnectedAccountsRepository } from './connected-accounts.repository';
import { ConnectedAccountsService } from './connected-accounts.service';
import { EnvironmentSetup } from './environment-setup';
import { FlushLastUsedTimesJob } from './flush-last-used-times.job';
import { OrganizationsRepository } from './organizations.repository';
import { UsersRepository } from './users.repository';
import { VerificationRepository } from './verification.repository';
import { OrganizationsService } from './organizations.service';
import { UsersService } from './users.service';

@Global()
@Module({
  providers: [
    OrganizationsRepository,
    UsersRepository,
    VerificationRepository,
    OrganizationsService,
    ApiKeysService,
    FlushLastUsedTimesJob,
    EnvironmentSetup,
    UsersService,
    ConnectedAccountsRepository,
    ConnectedAccountsService,
  ],
  exports: [
    OrganizationsService,
    OrganizationsRepository,
    VerificationRepository,
    ApiKeysService,
    EnvironmentSetup,
    UsersService,
    ConnectedAccountsService,
  ],
})
export class OrganizationsModule {}
