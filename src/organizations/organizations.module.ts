import { Global, Module } from '@nestjs/common';
import { Sql } from '../database/sql';
import { ApiKeysService } from './api-keys.service';
import { OrganizationsService } from './organizations.service';

@Global()
@Module({
  providers: [OrganizationsService, ApiKeysService, Sql],
  exports: [OrganizationsService, ApiKeysService, Sql],
})
export class OrganizationsModule {}
