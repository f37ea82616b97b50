import { Module } from '@nestjs/common';
import { GoingLiveModule } from '../going-live/going-live.module';
import { PaymentsModule } from '../payments/payments.module';
import { AuditLogRepository } from './audit-log.repository';
import { AdminAuditController } from './console/audit.controller';
import { AdminAuthController } from './console/auth.controller';
import { AdminGimtelAppsController } from './console/gimtel-apps.controller';
import { AdminRenderer } from './console/admin.renderer';
import { AdminSurface } from './console/admin-surface';
import { AdminNotFoundController } from './console/not-found.controller';
import { AdminOrganizationsController } from './console/organizations.controller';
import { OperatorActionsService } from './operator-actions.service';
import { OperatorSessions } from './operator-sessions.service';
import { OperatorsRepository } from './operators.repository';
import { OperatorsService } from './operators.service';

/**
 * The operators' side (docs/going-live.md, docs/admin.md): their accounts and sessions, their
 * actions on organizations with the audit log, and the console /admin where they work.
 */
@Module({
  imports: [GoingLiveModule, PaymentsModule],
  controllers: [
    AdminAuthController,
    AdminOrganizationsController,
    AdminAuditController,
    AdminGimtelAppsController,
    // Last: its catch-all route answers the paths no other page has.
    AdminNotFoundController,
  ],
  providers: [
    AuditLogRepository,
    OperatorActionsService,
    OperatorsRepository,
    OperatorsService,
    OperatorSessions,
    AdminSurface,
    AdminRenderer,
  ],
  exports: [OperatorActionsService, AuditLogRepository, OperatorsService],
})
export class AdminModule {}
