import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type EnvironmentKind = 'sandbox' | 'production';
export type KeyKind = 'secret' | 'publishable';

@Entity('organizations')
export class Organization {
  @PrimaryColumn('uuid') id!: string;
  @Column('text') name!: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}

@Entity('environments')
export class Environment {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'organization_id' }) organizationId!: string;
  @Column('text') kind!: EnvironmentKind;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}

@Entity('users')
export class User {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'organization_id' }) organizationId!: string;
  @Column('text') email!: string;
  @Column('text', { name: 'password_hash' }) passwordHash!: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}

@Entity('api_keys')
export class ApiKey {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'organization_id' }) organizationId!: string;
  @Column('uuid', { name: 'environment_id' }) environmentId!: string;
  @Column('text') kind!: KeyKind;
  @Column('bytea', { name: 'key_hash' }) keyHash!: Buffer;
  /** `sk_test_AbCd…wxyz`: enough to recognise a key in the dashboard, useless to an attacker. */
  @Column('text') display!: string;
  @Column('text', { nullable: true }) name!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt!: Date | null;
  @Column('timestamptz', { name: 'last_used_at', nullable: true }) lastUsedAt!: Date | null;
}
