import { Injectable } from '@nestjs/common';
import type { NewEnvironment } from './tenant';

/** Sets up part of a new environment, inside the transaction that creates it. */
export type EnvironmentSetupStep = (environment: NewEnvironment) => Promise<void>;

/**
 * The extension point through which modules above organizations prepare a new environment
 * (payments inserts the default bank apps) without organizations importing them. Modules
 * register their step when they start.
 */
@Injectable()
export class EnvironmentSetup {
  private readonly steps: { name: string; run: EnvironmentSetupStep }[] = [];

  register(name: string, run: EnvironmentSetupStep): void {
    if (this.steps.some((s) => s.name === name))
      throw new Error(`environment setup step ${name} registered twice`);
    this.steps.push({ name, run });
  }

  async run(environment: NewEnvironment): Promise<void> {
    for (const step of this.steps) await step.run(environment);
  }
}
