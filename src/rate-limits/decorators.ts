import { SetMetadata } from '@nestjs/common';

export const NO_RATE_LIMIT = 'khoums:no-rate-limit';

/** A keyless route the per-IP limit leaves alone (health probes come from the load balancer's few addresses). */
export const NoRateLimit = () => SetMetadata(NO_RATE_LIMIT, true);
