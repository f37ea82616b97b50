import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import { parseDateTime } from '../common/validation/rules';
import { Db } from '../database/db';
import type { EnvironmentScope } from '../organizations/tenant';
import type { AdvanceTestClockDto, CreateTestClockDto, ListTestClocksQuery } from './dto/test-clock.dto';
import { isAllowedAdvance, TestClock, TestClockJson, toTestClockJson } from './test-clock';
import { TestClockError, testClockError } from './test-clocks.errors';
import { TestClocksRepository } from './test-clocks.repository';

/**
 * Sandbox test clocks (docs/billing.md "Testing with test clocks"): the clocks themselves, and the
 * time of the objects on one. Advancing is the job of `TestClockAdvance` (src/billing), which
 * does what the real clock's runs do, as of the clock's times.
 */
@Injectable()
export class TestClocksService {
  constructor(
    private readonly db: Db,
    private readonly repo: TestClocksRepository,
  ) {}

  async create(tenant: EnvironmentScope, dto: CreateTestClockDto): Promise<TestClockJson> {
    assertSandbox(tenant);
    const at = new Date();
    const frozenTime = parseDateTime(dto.frozenTime)!;
    const clock = await this.repo.insert({
      id: randomUUID(),
      organizationId: tenant.organizationId,
      environmentId: tenant.environmentId,
      name: dto.name ?? null,
      frozenTime,
      position: frozenTime,
      status: 'ready',
      createdAt: at,
      updatedAt: at,
    });
    return toTestClockJson(clock);
  }

  async list(tenant: EnvironmentScope, q: ListTestClocksQuery): Promise<ListEnvelope<TestClockJson>> {
    assertSandbox(tenant);
    const page = pageOf(q);
    const { rows, total } = await this.repo.list(tenant.environmentId, page);
    return envelope(rows.map(toTestClockJson), total, page);
  }

  /** The environment's newest `limit` clocks, newest first: what a form offers to choose from. */
  async newest(tenant: EnvironmentScope, limit: number): Promise<TestClockJson[]> {
    assertSandbox(tenant);
    return (await this.repo.newest(tenant.environmentId, limit)).map(toTestClockJson);
  }

  async get(tenant: EnvironmentScope, id: string): Promise<TestClockJson> {
    return toTestClockJson(await this.clockOf(tenant, id));
  }

  /** The environment's clock, or 404 `Test clock not found` (400 with a Production key). */
  async clockOf(tenant: EnvironmentScope, id: string): Promise<TestClock> {
    assertSandbox(tenant);
    const clock = await this.repo.byId(tenant.environmentId, id);
    if (!clock) throw testClockError(TestClockError.NotFound);
    return clock;
  }

  /**
   * The organization's clock of this id, whatever the environment (a customer's, shown on the
   * customer's page in either environment), or undefined.
   */
  async findInOrganization(organizationId: string, id: string): Promise<TestClockJson | undefined> {
    const clock = await this.repo.find(id);
    return clock && clock.organizationId === organizationId ? toTestClockJson(clock) : undefined;
  }

  /**
   * Starts an advance to `dto.frozenTime` (forward, by at most two years): answered at once,
   * `advancing`; the work is the advance job's. A clock already advancing → 409.
   */
  advance(tenant: EnvironmentScope, id: string, dto: AdvanceTestClockDto): Promise<TestClockJson> {
    assertSandbox(tenant);
    const to = parseDateTime(dto.frozenTime)!;
    return this.db.transaction(async () => {
      const clock = await this.repo.lock(tenant.environmentId, id);
      if (!clock) throw testClockError(TestClockError.NotFound);
      if (clock.status === 'advancing') throw testClockError(TestClockError.Advancing);
      if (!isAllowedAdvance(clock.frozenTime, to)) throw testClockError(TestClockError.ForwardOnly);
      return toTestClockJson(await this.repo.startAdvance(id, to, new Date()));
    });
  }

  /**
   * The time of an object on `testClockId` (null: on none, the real time) changed through the API
   * with a key of `environmentId`: the clock's, which must be of that environment (400) and not
   * advancing (409: the advance is what moves its objects then).
   */
  async nowOf(testClockId: string | null, environmentId: string): Promise<Date> {
    if (testClockId === null) return new Date();
    const clock = await this.repo.find(testClockId);
    if (!clock || clock.environmentId !== environmentId)
      throw testClockError(TestClockError.OtherEnvironment);
    if (clock.status === 'advancing') throw testClockError(TestClockError.Advancing);
    return clock.position;
  }
}

/** Test clocks are Sandbox's: a Production key gets 400. */
export function assertSandbox(tenant: Pick<EnvironmentScope, 'environment'>): void {
  if (tenant.environment !== 'sandbox') throw testClockError(TestClockError.SandboxOnly);
}
