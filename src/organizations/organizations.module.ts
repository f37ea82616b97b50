import { Global, Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { EnvironmentSetup } from './environment-setup';
import { OrganizationsRepository } from './organizations.repository';
import { OrganizationsService } from './organizations.service';
import { UsersService } from './users.service';

@Global()
@Module({
  providers: [OrganizationsRepository, OrganizationsService, ApiKeysService, EnvironmentSetup, UsersService],
  exports: [OrganizationsService, OrganizationsRepository, ApiKeysService, EnvironmentSetup, UsersService],
})
export class OrganizationsModule {}
