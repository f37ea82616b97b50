import { Body, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiHeader, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Tenant } from '../auth/tenant';
import { ApiData, ApiList } from '../common/http/openapi';
import { ApiErrors } from '../common/http/openapi-errors';
import { API, Delete, Post } from '../common/http/routes';
import {
  AdvanceTestClockDto,
  CreateTestClockDto,
  ListTestClocksQuery,
  TestClockIdParams,
} from '../test-clocks/dto/test-clock.dto';
import { TestClockJson } from '../test-clocks/test-clock';
import { TestClockError } from '../test-clocks/test-clocks.errors';
import { TestClocksService } from '../test-clocks/test-clocks.service';
import { AdvanceTestClocksJob } from './advance-test-clocks.job';
import { TestClockDeletion } from './test-clock-deletion';

export class DeletedTestClockJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: [true] }) deleted!: true;
}

/** Sandbox test clocks (docs/billing.md "Testing with test clocks"). */
@ApiTags('Test clocks')
@ApiHeader({ name: 'Authorization', description: 'Sandbox secret API key (sk_test_…)', required: true })
@Controller(`${API}/test-clocks`)
export class TestClocksController {
  constructor(
    private readonly service: TestClocksService,
    private readonly deletion: TestClockDeletion,
    private readonly job: AdvanceTestClocksJob,
  ) {}

  @Get()
  @ApiErrors(TestClockError.SandboxOnly)
  @ApiList(TestClockJson)
  list(@Tenant() t: Tenant, @Query() q: ListTestClocksQuery) {
    return this.service.list(t, q);
  }

  @Post()
  @ApiErrors(TestClockError.SandboxOnly)
  @ApiData(TestClockJson)
  async create(@Tenant() t: Tenant, @Body() dto: CreateTestClockDto) {
    return { data: await this.service.create(t, dto) };
  }

  @Get(':id')
  @ApiErrors(TestClockError.SandboxOnly, TestClockError.NotFound)
  @ApiData(TestClockJson)
  async get(@Tenant() t: Tenant, @Param() p: TestClockIdParams) {
    return { data: await this.service.get(t, p.id) };
  }

  /** Deletes the clock, its customers and their subscriptions, invoices and payment requests. */
  @Delete(':id')
  @ApiErrors(TestClockError.SandboxOnly, TestClockError.NotFound)
  @ApiData(DeletedTestClockJson)
  async delete(@Tenant() t: Tenant, @Param() p: TestClockIdParams) {
    return { data: await this.deletion.delete(t, p.id) };
  }

  /**
   * Advances the clock to `frozenTime`: answered at once (`advancing`); its objects are billed,
   * reminded and dunned as of each moment up to then, and it turns `ready` (`test-clock-ready`).
   */
  @Post(':id/advance')
  @ApiErrors(
    TestClockError.SandboxOnly,
    TestClockError.NotFound,
    TestClockError.ForwardOnly,
    TestClockError.Advancing,
  )
  @ApiData(TestClockJson)
  async advance(@Tenant() t: Tenant, @Param() p: TestClockIdParams, @Body() dto: AdvanceTestClockDto) {
    const clock = await this.service.advance(t, p.id, dto);
    // This instance starts on it now (within the request's transaction, if any, the work would
    // not see the clock advancing: after the answer).
    setImmediate(() => void this.job.tick());
    return { data: clock };
  }
}
