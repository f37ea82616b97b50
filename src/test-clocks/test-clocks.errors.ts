import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum TestClockError {
  NotFound = 'test_clock_not_found',
  SandboxOnly = 'test_clocks_sandbox_only',
  ForwardOnly = 'test_clock_forward_only',
  Advancing = 'test_clock_advancing',
  OtherEnvironment = 'customer_on_test_clock',
}

export const testClockError = domainErrors<TestClockError>({
  [TestClockError.NotFound]: [404, Messages.testClockNotFound],
  [TestClockError.SandboxOnly]: [400, Messages.testClocksSandboxOnly],
  [TestClockError.ForwardOnly]: [400, Messages.testClockForwardOnly],
  [TestClockError.Advancing]: [409, Messages.testClockAdvancing],
  [TestClockError.OtherEnvironment]: [400, Messages.customerOnTestClock],
});
