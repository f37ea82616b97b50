import { Module } from '@nestjs/common';
import { TestClocksRepository } from './test-clocks.repository';
import { TestClocksService } from './test-clocks.service';

/** The clocks and their objects' time; their routes and their advance are billing's (src/billing). */
@Module({
  providers: [TestClocksService, TestClocksRepository],
  exports: [TestClocksService, TestClocksRepository],
})
export class TestClocksModule {}
