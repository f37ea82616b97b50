import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createHash, createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Tenant } from '../auth/tenant';
import { BillingSettingsService } from '../billing/billing-settings.service';
import { SmsGateway } from '../billing/sms-gateway';
import { maskPhone } from '../billing/sms-text';
import { AppConfig } from '../config/config';
import { CustomersRepository } from '../customers/customers.repository';
import { CustomersService } from '../customers/customers.service';
import { Db } from '../database/db';
import { ServerSecrets } from '../database/server-secrets.repository';
import { InvoiceListItem, InvoicesRepository } from '../invoices/invoices.repository';
import { OrganizationsRepository } from '../organizations/organizations.repository';
import type { EnvironmentKind } from '../organizations/tenant';
import { SubscriptionListItem, SubscriptionsRepository } from '../subscriptions/subscriptions.repository';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { CreatePortalSessionDto } from './dto/portal-session.dto';
import { PortalCode, PortalRepository, PortalSession } from './portal.repository';

/** A portal link and a signed-in session last an hour; a code 10 minutes and 5 tries; 3 codes per phone per hour. */
export const PORTAL_SESSION_MS = 60 * 60_000;
export const CODE_MS = 10 * 60_000;
export const CODE_TRIES = 5;
export const CODES_PER_HOUR = 3;
/** Ended sessions deleted with each new one (more than are made: the table does not grow). */
const PRUNE_BATCH = 10;
/** Records of each kind the portal shows (newest first). */
const LIST_LIMIT = 50;

/** The path of a portal link: its token is a secret (the request log drops it). */
export const PORTAL_LINK_PATH = '/portal/link/';

export interface PortalMerchant {
  organizationId: string;
  name: string;
}

/** What asking for a code came to: `sandboxCode` is the code itself, shown on the page in Sandbox. */
export type CodeRequest = { kind: 'sent'; codeId: string; sandboxCode?: string } | { kind: 'too-many' };

export type CodeCheck =
  { kind: 'signed-in'; token: string; session: PortalSession } | { kind: 'wrong' } | { kind: 'dead' };

export interface PortalOverview {
  subscriptions: SubscriptionListItem[];
  invoices: InvoiceListItem[];
  allowCancel: boolean;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * The customer portal (docs/billing.md "Customer portal"): links merchants hand out, sign-in by
 * a code sent by SMS, and what a signed-in customer sees and may do: their subscriptions and
 * invoices of the session's environment, and cancelling at period end through SubscriptionsService
 * (the change and its `subscription-updated` event are the API's).
 */
@Injectable()
export class PortalService implements OnApplicationShutdown {
  private readonly logger = new Logger('Portal');
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly repo: PortalRepository,
    private readonly config: AppConfig,
    private readonly secrets: ServerSecrets,
    private readonly organizations: OrganizationsRepository,
    private readonly customers: CustomersService,
    private readonly customerRows: CustomersRepository,
    private readonly subscriptions: SubscriptionsService,
    private readonly subscriptionRows: SubscriptionsRepository,
    private readonly invoices: InvoicesRepository,
    private readonly settings: BillingSettingsService,
    private readonly sms: SmsGateway,
  ) {}

  /** A link that signs the customer in to the key's environment for an hour; 404 for a customer of another organization. */
  async createLink(tenant: Tenant, dto: CreatePortalSessionDto): Promise<{ url: string; expiresAt: Date }> {
    const customer = await this.customers.get(tenant, dto.customerId);
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + PORTAL_SESSION_MS);
    await this.insertSession({
      id: randomUUID(),
      tokenHash: hashToken(token),
      organizationId: tenant.organizationId,
      environmentId: tenant.environmentId,
      customerIds: [customer.id],
      origin: 'link',
      returnUrl: dto.returnUrl ?? null,
      expiresAt,
      createdAt: now,
    });
    return { url: `${this.config.publicUrl}${PORTAL_LINK_PATH}${token}`, expiresAt };
  }

  async merchant(organizationId: string): Promise<PortalMerchant | undefined> {
    const org = await this.organizations.organizationName(organizationId);
    return org && { organizationId, name: org.name };
  }

  /** The live session of a cookie's (or link's) token, or undefined. */
  async session(token: string | undefined): Promise<PortalSession | undefined> {
    if (typeof token !== 'string' || token.length < 32 || token.length > 64) return undefined;
    return this.repo.liveSession(hashToken(token), new Date());
  }

  async signOut(session: PortalSession): Promise<void> {
    await this.repo.endSession(session.id);
  }

  /**
   * A new code for the phone, under the phone's lock: refused past CODES_PER_HOUR in the last hour.
   * A phone no customer has gets the same answer (a stored code, never sent), so the form does not
   * tell who is a customer. In Sandbox nothing leaves: the code comes back for the page to show;
   * in Production it is sent after the answer (sendCode).
   */
  async requestCode(
    merchant: PortalMerchant,
    environment: EnvironmentKind,
    phone: string,
    smsText: (code: string) => string,
  ): Promise<CodeRequest> {
    const env = await this.organizations.environment(merchant.organizationId, environment);
    if (!env) throw new Error(`organization ${merchant.organizationId} has no ${environment} environment`);
    const now = new Date();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const codeId = randomUUID();
    const stored = await this.db.transaction(async () => {
      await this.repo.lockPhone(env.id, phone);
      const hourAgo = new Date(now.getTime() - 60 * 60_000);
      // Older codes are dead (10 minutes) and out of the count: the table keeps an hour per phone.
      await this.repo.pruneCodes(env.id, phone, hourAgo);
      const recent = await this.repo.codesSince(env.id, phone, hourAgo);
      if (recent >= CODES_PER_HOUR) return false;
      await this.repo.insertCode({
        id: codeId,
        organizationId: merchant.organizationId,
        environmentId: env.id,
        phone,
        codeHash: await this.hashCode(codeId, code),
        tries: 0,
        expiresAt: new Date(now.getTime() + CODE_MS),
        createdAt: now,
      });
      return true;
    });
    if (!stored) return { kind: 'too-many' };
    if (environment === 'sandbox') return { kind: 'sent', codeId, sandboxCode: code };
    // Sent after the answer, so that the answer (and its time) is the same for a customer's phone
    // and any other, whatever the gateway does; a lost code is replaced by asking for another.
    this.track(this.sendCode(merchant, codeId, phone, smsText(code)));
    return { kind: 'sent', codeId };
  }

  /** Waits for the codes still being sent (shutdown). */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.sending]);
  }

  private track(sending: Promise<void>): void {
    this.sending.add(sending);
    void sending.finally(() => this.sending.delete(sending));
  }

  /** Sends the code to a customer's phone; a phone no customer of the merchant has gets nothing. */
  private async sendCode(
    merchant: PortalMerchant,
    codeId: string,
    phone: string,
    text: string,
  ): Promise<void> {
    const to = maskPhone(phone);
    const log = { organizationId: merchant.organizationId, codeId, to };
    try {
      if ((await this.customerRows.idsByPhone(merchant.organizationId, phone)).length === 0) {
        this.logger.log(log, 'portal code not sent: no customer has the phone');
        return;
      }
      const outcome = await this.sms.send({ id: codeId, phone, body: text });
      if (outcome.kind === 'sent') this.logger.log(log, 'portal code sent');
      else this.logger.warn({ ...log, error: outcome.error }, 'portal code not sent');
    } catch (err) {
      this.logger.error({ ...log, err }, 'portal code not sent');
    }
  }

  /**
   * One try of a code: each try counts (CODE_TRIES at most), and a right one signs in every
   * customer of the organization with the phone, in the code's environment, for an hour.
   */
  async checkCode(merchant: PortalMerchant, codeId: string, typed: string): Promise<CodeCheck> {
    const now = new Date();
    const code = await this.repo.tryCode(merchant.organizationId, codeId, CODE_TRIES, now);
    if (!code) return { kind: 'dead' };
    if (!(await this.codeMatches(code, typed))) return { kind: code.tries >= CODE_TRIES ? 'dead' : 'wrong' };
    if (!(await this.repo.useCode(code.id, now))) return { kind: 'dead' };
    const customerIds = await this.customerRows.idsByPhone(merchant.organizationId, code.phone);
    const token = randomBytes(32).toString('base64url');
    const session = {
      id: randomUUID(),
      organizationId: merchant.organizationId,
      environmentId: code.environmentId,
      customerIds,
      origin: 'phone' as const,
      returnUrl: null,
      expiresAt: new Date(now.getTime() + PORTAL_SESSION_MS),
    };
    await this.insertSession({ ...session, tokenHash: hashToken(token), createdAt: now });
    return { kind: 'signed-in', token, session: (await this.repo.liveSession(hashToken(token), now))! };
  }

  /** The session's customers' subscriptions and invoices in its environment, newest first. */
  async overview(session: PortalSession): Promise<PortalOverview> {
    const page = { limit: LIST_LIMIT };
    const [subs, invs, settings] = await Promise.all([
      Promise.all(
        session.customerIds.map((customerId) =>
          this.subscriptionRows.search(session.environmentId, { customerId }, page),
        ),
      ),
      Promise.all(
        session.customerIds.map((customerId) =>
          this.invoices.search(session.environmentId, { customerId }, page),
        ),
      ),
      this.settings.get(session.environmentId),
    ]);
    const newestFirst = (a: { createdAt: Date }, b: { createdAt: Date }) =>
      b.createdAt.getTime() - a.createdAt.getTime();
    return {
      subscriptions: subs.flatMap((p) => p.items).sort(newestFirst),
      invoices: invs.flatMap((p) => p.items).sort(newestFirst),
      allowCancel: settings.portal.allowCancel,
    };
  }

  /**
   * Cancels one of the session's subscriptions at the end of its period, as the API does;
   * 'not-found' for another customer's, 'not-allowed' when the merchant's settings say no.
   */
  async cancelAtPeriodEnd(
    session: PortalSession,
    subscriptionId: string,
  ): Promise<'cancelled' | 'not-found' | 'not-allowed'> {
    const sub = await this.subscriptionRows.detail(session.environmentId, subscriptionId);
    if (!sub || !session.customerIds.includes(sub.customerId)) return 'not-found';
    if (!(await this.settings.get(session.environmentId)).portal.allowCancel) return 'not-allowed';
    await this.subscriptions.cancel(session, subscriptionId, true);
    return 'cancelled';
  }

  /** Stores a new session, and deletes a few ended ones so the table holds about the live ones. */
  private async insertSession(session: Parameters<PortalRepository['insertSession']>[0]): Promise<void> {
    await this.repo.insertSession(session);
    await this.repo.pruneSessions(session.createdAt, PRUNE_BATCH);
  }

  /** The portal's CSRF key, shared by every instance. */
  csrfSecret(): Promise<string> {
    return this.secrets.get('portal-csrf');
  }

  private async hashCode(codeId: string, code: string): Promise<string> {
    return createHmac('sha256', await this.secrets.get('portal-codes'))
      .update(`${codeId}:${code}`)
      .digest('base64url');
  }

  private async codeMatches(code: PortalCode, typed: string): Promise<boolean> {
    const expected = Buffer.from(code.codeHash);
    const given = Buffer.from(await this.hashCode(code.id, typed));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
