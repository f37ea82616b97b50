import { Module } from '@nestjs/common';
import { GoingLiveModule } from '../going-live/going-live.module';
import { AuditLogRepository } from './audit-log.repository';
import { OperatorActionsService } from './operator-actions.service';
import { OperatorsRepository } from './operators.repository';
import { OperatorsService } from './operators.service';

/** The operators' side (docs/going-live.md): their accounts, their actions on organizations and the audit log. */
@Module({
  imports: [GoingLiveModule],
  providers: [AuditLogRepository, OperatorActionsService, OperatorsRepository, OperatorsService],
  exports: [OperatorActionsService, AuditLogRepository, OperatorsService],
})
export class AdminModule {}
