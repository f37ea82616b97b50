import { Global, Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { EnvironmentSetup } from './environment-setup';
import { OrganizationsRepository } from './organizations.repository';
import { OrganizationsService } from './organizations.service';

@Global()
@Module({
  providers: [OrganizationsRepository, OrganizationsService, ApiKeysService, EnvironmentSetup],
  exports: [OrganizationsService, ApiKeysService, EnvironmentSetup],
})
export class OrganizationsModule {}
