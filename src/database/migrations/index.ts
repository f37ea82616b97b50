import { Foundation1763776800000 } from './1763776800000-Foundation';
import { Payments1763776900000 } from './1763776900000-Payments';
import { Webhooks1763777000000 } from './1763777000000-Webhooks';
import { Checkout1763777100000 } from './1763777100000-Checkout';
import { ServerSecrets1763777150000 } from './1763777150000-ServerSecrets';
import { Billing1763777200000 } from './1763777200000-Billing';
import { Idempotency1763777300000 } from './1763777300000-Idempotency';
import { Dashboard1763777400000 } from './1763777400000-Dashboard';

import { VoidPaymentRequests1763777500000 } from './1763777500000-VoidPaymentRequests';
import { DashboardBilling1763777600000 } from './1763777600000-DashboardBilling';
import { EventRetention1763777740000 } from './1763777740000-EventRetention';
import { PayAttemptsPerPhone1763777750000 } from './1763777750000-PayAttemptsPerPhone';
import { WebhookFairness1763777650000 } from './1763777650000-WebhookFairness';
import { GoingLive1763778000000 } from './1763778000000-GoingLive';
import { GoLiveApplications1763778100000 } from './1763778100000-GoLiveApplications';
import { Operators1763778200000 } from './1763778200000-Operators';
import { VerificationNotifications1763778300000 } from './1763778300000-VerificationNotifications';
import { ApiKeyNotifications1763777700000 } from './1763777700000-ApiKeyNotifications';
import { OperatorSessions1795609837622 } from './1795609837622-OperatorSessions';
import { MoosylClients1795609836016 } from './1795609836016-MoosylClients';
import { InvoiceReminders1795609842608 } from './1795609842608-InvoiceReminders';
import { ManualPayments1795612170052 } from './1795612170052-ManualPayments';
import { FirstPayment1795611416197 } from './1795611416197-FirstPayment';
import { Dunning1795611106824 } from './1795611106824-Dunning';
import { SetBasedFanOut1795610517643 } from './1795610517643-SetBasedFanOut';
import { Platforms1795609846118 } from './1795609846118-Platforms';
import { ConnectedFanOut1795615734720 } from './1795615734720-ConnectedFanOut';
import { Ledger1795609844063 } from './1795609844063-Ledger';
import { Payouts1795610234370 } from './1795610234370-Payouts';
import { BalanceDaySlots1795617000000 } from './1795617000000-BalanceDaySlots';
import { StatementKeys1795618000000 } from './1795618000000-StatementKeys';
import { ConnectedOwnersWithoutPassword1796600000000 } from './1796600000000-ConnectedOwnersWithoutPassword';
import { CustomerPortal1795616000000 } from './1795616000000-CustomerPortal';
import { Refunds1795610777196 } from './1795610777196-Refunds';
import { WebhookOrganizationCap1795610067057 } from './1795610067057-WebhookOrganizationCap';
import { BillingWriteKeys1795616400000 } from './1795616400000-BillingWriteKeys';
import { PaymentLinks1796700000000 } from './1796700000000-PaymentLinks';
import { PayoutAccountChanges1796500000000 } from './1796500000000-PayoutAccountChanges';
import { SubscriptionQuantity1796800000000 } from './1796800000000-SubscriptionQuantity';
import { InvoiceNumbers1796800100000 } from './1796800100000-InvoiceNumbers';
import { PlanChanges1796800200000 } from './1796800200000-PlanChanges';
import { Coupons1796800300000 } from './1796800300000-Coupons';
import { InvoicePrefix17968500000000 } from './17968500000000-InvoicePrefix';
import { ProrationSeq1796860000000 } from './1796860000000-ProrationSeq';
import { TestClocks1797200000000 } from './1797200000000-TestClocks';
import { Transfers1797100000000 } from './1797100000000-Transfers';
import { TransferPollCursors1797150000000 } from './1797150000000-TransferPollCursors';
import { TransferClaimsOnTestClocks1797400000000 } from './1797400000000-TransferClaimsOnTestClocks';

/** Every migration, in order. Listed explicitly so the app, the CLI, the tests and the TypeORM CLI run the same set. */
export const migrations = [
  Foundation1763776800000,
  Payments1763776900000,
  Webhooks1763777000000,
  Checkout1763777100000,
  ServerSecrets1763777150000,
  Billing1763777200000,
  Idempotency1763777300000,
  Dashboard1763777400000,
  VoidPaymentRequests1763777500000,
  DashboardBilling1763777600000,
  WebhookFairness1763777650000,
  EventRetention1763777740000,
  PayAttemptsPerPhone1763777750000,
  GoingLive1763778000000,
  GoLiveApplications1763778100000,
  Operators1763778200000,
  VerificationNotifications1763778300000,
  ApiKeyNotifications1763777700000,
  OperatorSessions1795609837622,
  MoosylClients1795609836016,
  InvoiceReminders1795609842608,
  Dunning1795611106824,
  FirstPayment1795611416197,
  ManualPayments1795612170052,
  SetBasedFanOut1795610517643,
  Platforms1795609846118,
  Ledger1795609844063,
  Payouts1795610234370,
  Refunds1795610777196,
  WebhookOrganizationCap1795610067057,
  ConnectedFanOut1795615734720,
  CustomerPortal1795616000000,
  BillingWriteKeys1795616400000,
  BalanceDaySlots1795617000000,
  StatementKeys1795618000000,
  ConnectedOwnersWithoutPassword1796600000000,
  PaymentLinks1796700000000,
  PayoutAccountChanges1796500000000,
  SubscriptionQuantity1796800000000,
  InvoiceNumbers1796800100000,
  PlanChanges1796800200000,
  Coupons1796800300000,
  InvoicePrefix17968500000000,
  ProrationSeq1796860000000,
  TestClocks1797200000000,
  Transfers1797100000000,
  TransferPollCursors1797150000000,
  TransferClaimsOnTestClocks1797400000000,
];
