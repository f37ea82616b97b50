import { ReadsReplica } from '../database/reads-replica';
import { Get, Param } from '@nestjs/common';
import { AdvanceTestClocksJob } from '../billing/advance-test-clocks.job';
import { TestClockDeletion } from '../billing/test-clock-deletion';
import { AppError } from '../common/errors/app-error';
import { Post } from '../common/http/routes';
import { parseDateTime } from '../common/validation/rules';
import { addMonths } from '../subscriptions/periods';
import { CustomersService } from '../customers/customers.service';
import { TEST_CLOCK_NAME_MAX } from '../test-clocks/dto/test-clock.dto';
import { advanceLimit, TestClock, toTestClockJson } from '../test-clocks/test-clock';
import { TestClockError } from '../test-clocks/test-clocks.errors';
import { TestClocksService } from '../test-clocks/test-clocks.service';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages, idOr404 } from './dashboard-pages';
import { Dash, DashboardRequest } from './dashboard-request';
import { TEST_CLOCKS_PATH } from './dashboard-surface';
import { dateTimeInput, fill, formatTime } from './format';
import { apiFormMessage, ApiRule, FormMessage } from './forms';
import { customerRow, numberedPager, pageNumber, pager, testClockRow } from './presenters';

const PAGE_SIZE = 25;

/** The API's rules an advance may break (`TestClocksService.advance`), worded in the page's language. */
const ADVANCE_RULES = [TestClockError.ForwardOnly, TestClockError.Advancing] satisfies ApiRule[];

interface ClockForm {
  name: string;
  frozenTime: string;
  errors: Record<string, string>;
}

interface AdvanceForm {
  frozenTime: string;
  error?: FormMessage;
}

/**
 * Sandbox test clocks (docs/billing.md "Testing with test clocks"): list and create; a clock's page
 * with its status, its time, its customers, the advance form (a date and time picker, the API's
 * rules and words) and deletion. The rules are the API's (`TestClocksService`, `TestClockDeletion`);
 * the advance is the job's, started at once as the API's route starts it. In Production every route
 * answers the 404 page, which says test clocks are Sandbox's, and the menu has no entry.
 */
@DashboardPages('test-clocks')
export class DashboardTestClocksController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly clocks: TestClocksService,
    private readonly deletion: TestClockDeletion,
    private readonly job: AdvanceTestClocksJob,
    private readonly customers: CustomersService,
  ) {}

  @ReadsReplica('page')
  @Get()
  async list(@Dash() d: DashboardRequest): Promise<void> {
    if (!this.inSandbox(d)) return;
    const now = new Date();
    await this.renderList(d, { name: '', frozenTime: dateTimeInput(now), errors: {} }, 200);
  }

  /** `name?`, `frozenTime` (datetime-local, UTC): to the new clock's page. */
  @Post()
  async create(@Dash() d: DashboardRequest): Promise<void> {
    if (!this.inSandbox(d)) return;
    const { t } = d;
    const form: ClockForm = {
      name: d.field('name').trim(),
      frozenTime: d.field('frozenTime').trim(),
      errors: {},
    };
    const at = parseDateTime(form.frozenTime);
    if (!at) form.errors.frozenTime = t.invalidTestClockTime;
    if (form.name.length > TEST_CLOCK_NAME_MAX) form.errors.name = t.testClockNameTooLong;
    if (!at || Object.keys(form.errors).length > 0) return this.renderList(d, form, 400);
    const clock = await this.clocks.create(d.scope, {
      frozenTime: at.toISOString(),
      name: form.name === '' ? undefined : form.name,
    });
    d.page.redirect(`${TEST_CLOCKS_PATH}/${clock.id}?notice=testClockCreated`);
  }

  /** The advance form offers a month on (a monthly plan's next period), as billing counts months. */
  @Get(':id')
  async clock(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    if (!this.inSandbox(d)) return;
    const clock = await this.clockOrNotFoundPage(d, id);
    await this.renderClock(d, clock, { frozenTime: dateTimeInput(addMonths(clock.frozenTime, 1)) }, 200);
  }

  /**
   * `frozenTime` (datetime-local, UTC): forward, by at most two years, as the API's advance; a
   * refusal in the form, in the page's language. Back to the clock's page, advancing.
   */
  @Post(':id/advance')
  async advance(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    if (!this.inSandbox(d)) return;
    const clock = await this.clockOrNotFoundPage(d, id);
    const form: AdvanceForm = { frozenTime: d.field('frozenTime').trim() };
    const to = parseDateTime(form.frozenTime);
    if (!to) return this.renderClock(d, clock, { ...form, error: { text: d.t.invalidTestClockTime } }, 400);
    try {
      await this.clocks.advance(d.scope, clock.id, { frozenTime: to.toISOString() });
    } catch (err) {
      if (AppError.is(err, TestClockError.NotFound)) throw dashboardError(DashboardError.NotFound);
      if (!AppError.is(err, ...ADVANCE_RULES)) throw err;
      // The clock as it is now (another tab may have set it advancing).
      const now = await this.clockOrNotFoundPage(d, clock.id);
      return this.renderClock(d, now, { ...form, error: apiFormMessage(d.lang, err) }, err.status);
    }
    // This instance starts on it now, as the API's route does (after the answer's transaction).
    setImmediate(() => void this.job.tick());
    d.page.redirect(`${TEST_CLOCKS_PATH}/${clock.id}?notice=testClockAdvancing`);
  }

  /** Deletes the clock, its customers and what they own (`TestClockDeletion`). */
  @Post(':id/delete')
  async delete(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    if (!this.inSandbox(d)) return;
    const clock = await this.clockOrNotFoundPage(d, id);
    try {
      await this.deletion.delete(d.scope, clock.id);
    } catch (err) {
      if (AppError.is(err, TestClockError.NotFound)) throw dashboardError(DashboardError.NotFound);
      throw err;
    }
    d.page.redirect(`${TEST_CLOCKS_PATH}?notice=testClockDeleted`);
  }

  /** Sandbox's: in Production, the 404 page saying so (false: answered). */
  private inSandbox(d: DashboardRequest): boolean {
    if (d.scope.environment === 'sandbox') return true;
    this.renderer.error(d, 404, d.t.testClocksSandboxOnlyTitle, d.t.testClocksSandboxOnlyBody);
    return false;
  }

  /** A clock of the session's environment, or the 404 page (another organization's, a bad id). */
  private async clockOrNotFoundPage(d: DashboardRequest, id: string): Promise<TestClock> {
    try {
      return await this.clocks.clockOf(d.scope, idOr404(id));
    } catch (err) {
      if (AppError.is(err, TestClockError.NotFound)) throw dashboardError(DashboardError.NotFound);
      throw err;
    }
  }

  private async renderList(d: DashboardRequest, form: ClockForm, status: number): Promise<void> {
    const list = await this.clocks.list(d.scope, { page: pageNumber(d), limit: PAGE_SIZE });
    this.renderer.render(
      d,
      'test-clocks',
      d.t.testClocksTitle,
      {
        rows: list.data.map((c) => testClockRow(d, c)),
        pager: numberedPager(d, TEST_CLOCKS_PATH, list),
        form,
      },
      status,
    );
  }

  private async renderClock(
    d: DashboardRequest,
    clock: TestClock,
    form: AdvanceForm,
    status: number,
  ): Promise<void> {
    const { t } = d;
    const here = `${TEST_CLOCKS_PATH}/${clock.id}`;
    const customers = await this.customers.search(
      d.scope.organizationId,
      { testClockId: clock.id },
      { after: d.query('after'), before: d.query('before'), limit: PAGE_SIZE },
    );
    const row = testClockRow(d, toTestClockJson(clock));
    const limit = advanceLimit(clock.frozenTime);
    this.renderer.render(
      d,
      'test-clock',
      fill(t.testClockTitle, { name: clock.name ?? clock.id }),
      {
        clock: {
          ...row,
          here,
          advanceAction: `${here}/advance`,
          deleteAction: `${here}/delete`,
          advancingText: fill(t.testClockAdvancingBody, { time: row.frozenTime }),
        },
        advance: {
          ...form,
          // The picker's bounds: the API's (later than the clock, at most two years on).
          min: dateTimeInput(new Date(clock.frozenTime.getTime() + 60_000)),
          max: dateTimeInput(limit),
          hint: fill(t.advanceHint, { limit: formatTime(limit, d.lang) }),
          // While advancing the page says so; the form comes back once ready (or with its refusal).
          shown: clock.status === 'ready' || form.error !== undefined,
        },
        customers: customers.items.map((c) => customerRow(d, c)),
        pager: pager(d, here, {}, customers),
      },
      status,
    );
  }
}
