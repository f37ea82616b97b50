import { Module } from '@nestjs/common';
import { GoingLiveModule } from '../going-live/going-live.module';
import { AuditLogRepository } from './audit-log.repository';
import { OperatorActionsService } from './operator-actions.service';

/** The operators' side (docs/admin.md): their actions on organizations and the audit log. */
@Module({
  imports: [GoingLiveModule],
  providers: [AuditLogRepository, OperatorActionsService],
  exports: [OperatorActionsService, AuditLogRepository],
})
export class AdminModule {}
