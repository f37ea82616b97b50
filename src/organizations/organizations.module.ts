import { Global, Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { OrganizationsService } from './organizations.service';

@Global()
@Module({
  providers: [OrganizationsService, ApiKeysService],
  exports: [OrganizationsService, ApiKeysService],
})
export class OrganizationsModule {}
