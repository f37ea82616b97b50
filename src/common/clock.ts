import { Injectable } from '@nestjs/common';

/** The time, in one place, so tests can move it instead of sleeping. */
@Injectable()
export class Clock {
  /** Milliseconds since the epoch. */
  now(): number {
    return Date.now();
  }
}
