import { isPublicAddress, isPublicUrl } from './address-policy';

describe('webhook address policy', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:c0a8:101',
    '64:ff9b::a00:1',
    '2002:7f00:1::',
  ])('refuses the non-public address %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'accepts the public address %s',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    },
  );

  it.each([
    'http://localhost:3000/hook',
    'http://LOCALHOST./hook',
    'http://api.localhost/x',
    'http://127.0.0.1/x',
    'http://2130706433/x',
    'http://0x7f.1/x',
    'http://[::1]/x',
    'http://[::ffff:127.0.0.1]/x',
    'http://10.1.2.3/x',
    'http://192.168.0.10:8080/x',
    'http://169.254.169.254/latest/meta-data',
    'http://intranet/x',
    'http://0/x',
  ])('refuses the URL %s', (url) => {
    expect(isPublicUrl(url)).toBe(false);
  });

  it.each(['https://merchant.example.com/webhooks', 'http://8.8.8.8/x', 'https://[2606:4700::1]/x'])(
    'accepts the URL %s',
    (url) => {
      expect(isPublicUrl(url)).toBe(true);
    },
  );
});
