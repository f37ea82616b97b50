import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { Sql } from '../database/sql';
import type { EnvironmentKind, KeyKind } from './entities';
import { displayKey, generateApiKey, hashApiKey, looksLikeApiKey, sameHash } from './secrets';

const LAST_USED_FLUSH_MS = 30_000;

export interface IssuedKey {
  id: string;
  kind: KeyKind;
  key: string;
}

interface KeyRow {
  id: string;
  kind: KeyKind;
  key_hash: Buffer;
  environment_id: string;
  organization_id: string;
  environment: EnvironmentKind;
}

@Injectable()
export class ApiKeysService implements OnModuleInit, OnApplicationShutdown {
  /** Keys used since the last flush: last-used times are written in batches, never on every request. */
  private readonly used = new Set<string>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly ds: DataSource,
    private readonly sql: Sql,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flushLastUsed().catch(() => undefined), LAST_USED_FLUSH_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flushLastUsed().catch(() => undefined);
  }

  /** The tenant of a live key, or null for an unknown, malformed or revoked one. One indexed query. */
  async authenticate(key: string): Promise<Tenant | null> {
    if (!looksLikeApiKey(key)) return null;
    const hash = hashApiKey(key);
    const rows = await this.sql.rows<KeyRow>(
      `SELECT k.id, k.kind, k.key_hash, k.environment_id, k.organization_id, e.kind AS environment
         FROM api_keys k JOIN environments e ON e.id = k.environment_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [hash],
    );
    const row = rows[0];
    if (!row || !sameHash(row.key_hash, hash)) return null;
    // The prefix must agree with what the key is: a tampered row never widens access.
    if (!key.startsWith(`${row.kind === 'secret' ? 'sk' : 'pk'}_${row.environment === 'sandbox' ? 'test' : 'live'}_`)) {
      return null;
    }
    this.used.add(row.id);
    return {
      organizationId: row.organization_id,
      environmentId: row.environment_id,
      environment: row.environment,
      keyKind: row.kind,
      keyId: row.id,
    };
  }

  /** Issues a key; the full key is returned once and only its SHA-256 hash is stored. */
  async issue(
    manager: EntityManager,
    organizationId: string,
    environment: { id: string; kind: EnvironmentKind },
    kind: KeyKind,
    name: string | null = null,
  ): Promise<IssuedKey> {
    const key = generateApiKey(kind, environment.kind);
    const id = randomUUID();
    await manager.query(
      `INSERT INTO api_keys (id, organization_id, environment_id, kind, key_hash, display, name)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [id, organizationId, environment.id, kind, hashApiKey(key), displayKey(key), name],
    );
    return { id, kind, key };
  }

  /** Revokes a key of the organization; its very next request gets 401. */
  async revoke(organizationId: string, keyId: string): Promise<boolean> {
    const result: [unknown, number] = await this.ds.query(
      `UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND organization_id = $2 AND revoked_at IS NULL`,
      [keyId, organizationId],
    );
    return result[1] > 0;
  }

  async flushLastUsed(): Promise<void> {
    if (this.used.size === 0) return;
    const ids = [...this.used];
    this.used.clear();
    await this.ds.query(`UPDATE api_keys SET last_used_at = now() WHERE id = ANY($1::uuid[])`, [ids]);
  }
}
