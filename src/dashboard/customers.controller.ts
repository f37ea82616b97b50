import { ReadsReplica } from '../database/reads-replica';
import { isUUID } from 'class-validator';
import { Get, Param } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { Post } from '../common/http/routes';
import { EXTERNAL_ID } from '../common/validation/fields';
import { normalizePhone } from '../common/validation/rules';
import type { Customer } from '../customers/customer';
import { CustomerError } from '../customers/customers.errors';
import { CustomersService } from '../customers/customers.service';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { TestClockError } from '../test-clocks/test-clocks.errors';
import { TestClocksService } from '../test-clocks/test-clocks.service';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages, idOr404 } from './dashboard-pages';
import { Dash, DashboardRequest } from './dashboard-request';
import { fill, formatTime } from './format';
import { apiFormMessage, ApiRule, parseText } from './forms';
import { customerRow, pager, subscriptionRow, testClockRow } from './presenters';

const PAGE_SIZE = 25;

interface CustomerForm {
  externalUserId: string;
  phone: string;
  /** Creation in Sandbox: the test clock chosen ('' none). */
  testClockId?: string;
  errors: Record<string, string>;
}

/** The most clocks the creation form offers (the environment's newest). */
const CLOCK_CHOICES = 100;

/** The customer form: an externalUserId as the API takes it, and a phone number or nothing. */
function customerForm(d: DashboardRequest): CustomerForm & { normalizedPhone: string | null } {
  const externalUserId = d.field('externalUserId').trim();
  const phone = d.field('phone').trim();
  const normalizedPhone = phone === '' ? null : normalizePhone(phone);
  const errors: Record<string, string> = {};
  if (!EXTERNAL_ID.test(externalUserId)) errors.externalUserId = d.t.invalidExternalUserId;
  if (phone !== '' && !normalizedPhone) errors.phone = d.t.invalidPhone;
  return { externalUserId, phone, normalizedPhone, errors };
}

/** The rules of a customer's test clock (`CustomersService.create`), on the clock's field. */
const CLOCK_RULES = [TestClockError.NotFound, TestClockError.SandboxOnly] satisfies ApiRule[];

/**
 * The organization's customers, the same in both environments: search by externalUserId
 * or phone number, add, edit. A customer's page shows its subscriptions of the session's environment.
 */
@DashboardPages('customers')
export class DashboardCustomersController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly customers: CustomersService,
    private readonly subscriptions: SubscriptionsService,
    private readonly clocks: TestClocksService,
  ) {}

  @ReadsReplica('page')
  @Get()
  async list(@Dash() d: DashboardRequest): Promise<void> {
    await this.renderList(d, { externalUserId: '', phone: '', errors: {} });
  }

  /** `testClockId` (Sandbox, optional): the customer lives on that test clock of the environment. */
  @Post()
  async create(@Dash() d: DashboardRequest): Promise<void> {
    const form: CustomerForm & { normalizedPhone: string | null } = {
      ...customerForm(d),
      testClockId: d.field('testClockId').trim(),
    };
    if (form.testClockId !== '' && !isUUID(form.testClockId)) form.errors.testClockId = d.t.chooseTestClock;
    if (Object.keys(form.errors).length > 0) return this.renderList(d, form);
    let created;
    try {
      created = await this.customers.create(d.scope, {
        externalUserId: form.externalUserId,
        phone: form.normalizedPhone ?? undefined,
        testClockId: form.testClockId === '' ? undefined : form.testClockId,
      });
    } catch (err) {
      if (AppError.is(err, ...CLOCK_RULES))
        return this.renderList(d, { ...form, errors: { testClockId: apiFormMessage(d.lang, err).text } });
      if (!AppError.is(err, CustomerError.ExternalUserIdTaken)) throw err;
      return this.renderList(d, { ...form, errors: { externalUserId: d.t.externalUserIdTaken } });
    }
    d.page.redirect(`/dashboard/customers/${created.id}?notice=customerCreated`);
  }

  @Get(':id')
  async customer(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const customer = await this.customerOrNotFoundPage(d, id);
    await this.renderCustomer(d, customer, {
      externalUserId: customer.externalUserId,
      phone: customer.phone ?? '',
      errors: {},
    });
  }

  /** An empty phone removes the number. */
  @Post(':id')
  async update(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const customer = await this.customerOrNotFoundPage(d, id);
    const form = customerForm(d);
    if (Object.keys(form.errors).length > 0) return this.renderCustomer(d, customer, form);
    try {
      await this.customers.update(d.scope, customer.id, {
        externalUserId: form.externalUserId,
        phone: form.normalizedPhone,
      });
    } catch (err) {
      if (AppError.is(err, CustomerError.NotFound)) throw dashboardError(DashboardError.NotFound);
      if (!AppError.is(err, CustomerError.ExternalUserIdTaken)) throw err;
      return this.renderCustomer(d, customer, {
        ...form,
        errors: { externalUserId: d.t.externalUserIdTaken },
      });
    }
    d.page.redirect(`/dashboard/customers/${customer.id}?notice=customerSaved`);
  }

  /** A customer of the organization (either environment), or the 404 page. */
  private async customerOrNotFoundPage(d: DashboardRequest, id: string): Promise<Customer> {
    const customer = await this.customers.findInOrganization(d.scope.organizationId, idOr404(id));
    if (!customer) throw dashboardError(DashboardError.NotFound);
    return customer;
  }

  private async renderList(d: DashboardRequest, form: CustomerForm): Promise<void> {
    const { t } = d;
    const q = parseText(d.query('q'));
    const page = await this.customers.search(
      d.scope.organizationId,
      { q },
      { after: d.query('after'), before: d.query('before'), limit: PAGE_SIZE },
    );
    // Sandbox: the environment's test clocks to create the customer on (none by default).
    const clocks =
      d.scope.environment === 'sandbox' ? await this.clocks.newest(d.scope, CLOCK_CHOICES) : undefined;
    this.renderer.render(d, 'customers', t.customersTitle, {
      filters: { q },
      filtered: q !== undefined,
      rows: page.items.map((c) => customerRow(d, c)),
      pager: pager(d, '/dashboard/customers', { q }, page),
      form,
      // The field when there is a clock to pick, or a refusal to show on it.
      clockField: (clocks?.length ?? 0) > 0 || form.errors.testClockId !== undefined,
      clockChoices: (clocks ?? []).map((c) => ({
        value: c.id,
        label: `${c.name ?? c.id} · ${formatTime(c.frozenTime, d.lang)}`,
        selected: c.id === form.testClockId,
      })),
    });
  }

  private async renderCustomer(d: DashboardRequest, customer: Customer, form: CustomerForm): Promise<void> {
    const { t } = d;
    const subscriptions = await this.subscriptions.search(
      d.scope.environmentId,
      { customerId: customer.id },
      { limit: PAGE_SIZE },
    );
    // Its test clock, of Sandbox: a link there; in Production its name only (no page to go to).
    const clock = customer.testClockId
      ? await this.clocks.findInOrganization(d.scope.organizationId, customer.testClockId)
      : undefined;
    const clockRow = clock && testClockRow(d, clock);
    this.renderer.render(d, 'customer', fill(t.customerTitle, { externalUserId: customer.externalUserId }), {
      customer: {
        ...customerRow(d, customer),
        action: `/dashboard/customers/${customer.id}`,
        invoicesHref: `/dashboard/invoices?customer=${encodeURIComponent(customer.externalUserId)}`,
      },
      clock: clockRow && {
        ...clockRow,
        href: d.scope.environment === 'sandbox' ? clockRow.href : undefined,
      },
      form,
      subscriptions: subscriptions.items.map((s) => subscriptionRow(d, s)),
    });
  }
}
