import { writeLoadSettings } from './embedded-postgres';

const GB = 1024 ** 3;

describe('writeLoadSettings', () => {
  it('gives PostgreSQL a quarter of the memory for its buffers, between 128 MB and 8 GB', () => {
    expect(writeLoadSettings(24 * GB).shared_buffers).toBe('6144MB');
    expect(writeLoadSettings(2 * GB).shared_buffers).toBe('512MB');
    expect(writeLoadSettings(256 * 1024 ** 2).shared_buffers).toBe('128MB');
    expect(writeLoadSettings(128 * GB).shared_buffers).toBe('8192MB');
  });

  it('checkpoints every 15 minutes or 16 GB of WAL', () => {
    expect(writeLoadSettings(8 * GB)).toMatchObject({ max_wal_size: '16GB', checkpoint_timeout: '15min' });
  });
});
