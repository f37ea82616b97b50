import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
const toBool = ({ value }: { value: unknown }) =>
  value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;

/**
 * Every setting the service reads, from environment variables, validated once at start-up.
 * A bad value stops the process with one clear line per problem instead of failing later.
 */
export class AppConfig {
  @Transform(toInt) @IsInt() @Min(0) @Max(65535)
  PORT = 3000;

  /** Unset: an embedded PostgreSQL under DATA_DIR. */
  @IsOptional() @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  @IsString()
  DATA_DIR = './.data';

  @Transform(toInt) @IsInt() @Min(1024) @Max(65535)
  EMBEDDED_PG_PORT = 54329;

  /** The origin used in checkoutUrl and in links the service prints. Default: http://localhost:PORT. */
  @IsOptional() @Matches(/^https?:\/\/[^/\s]+$/, { message: 'PUBLIC_URL must be an http(s) origin without a path, e.g. https://pay.example.com' })
  PUBLIC_URL?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** Size of the PostgreSQL connection pool of one service instance. */
  @Transform(toInt) @IsInt() @Min(1) @Max(200)
  DB_POOL_SIZE = 20;

  /**
   * Signs the hosted page's CSRF tokens. Unset: a random secret per process, which is fine for one
   * instance; set the same value on every instance behind a load balancer.
   */
  @IsOptional() @IsString() @MinLength(32, { message: 'CHECKOUT_CSRF_SECRET must be at least 32 characters' })
  CHECKOUT_CSRF_SECRET?: string;

  /** Create the demo organization on first start (only on an empty database). */
  @Transform(toBool) @IsBoolean()
  DEMO_ORG = true;

  get publicUrl(): string {
    return this.PUBLIC_URL ?? `http://localhost:${this.PORT}`;
  }
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const known = Object.keys(new AppConfig());
  const input: Record<string, string> = {};
  for (const key of [...known, 'DATABASE_URL', 'PUBLIC_URL', 'CHECKOUT_CSRF_SECRET']) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const config = plainToInstance(AppConfig, input);
  const errors = validateSync(config);
  if (errors.length > 0) {
    const lines = errors.flatMap((e) =>
      Object.values(e.constraints ?? {}).map((m) => `  ${e.property}=${JSON.stringify(e.value)}: ${m}`),
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return config;
}
