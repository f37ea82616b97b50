import { ipv6Groups, isPublicAddress, isPublicUrl } from './address-policy';

describe('webhook address policy', () => {
  describe('IPv4', () => {
    it.each([
      ['0.0.0.0', 'unspecified'],
      ['0.255.255.255', '"this network", last'],
      ['10.0.0.0', 'private 10/8, first'],
      ['10.255.255.255', 'private 10/8, last'],
      ['100.64.0.0', 'CGNAT, first'],
      ['100.127.255.255', 'CGNAT, last'],
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback, high'],
      ['169.254.0.1', 'link-local'],
      ['169.254.169.254', 'cloud metadata'],
      ['172.16.0.0', 'private 172.16/12, first'],
      ['172.31.255.255', 'private 172.16/12, last'],
      ['192.0.0.8', 'IETF protocol assignments'],
      ['192.0.2.1', 'documentation'],
      ['192.88.99.1', '6to4 relay anycast'],
      ['192.168.0.0', 'private 192.168/16, first'],
      ['192.168.255.255', 'private 192.168/16, last'],
      ['198.18.0.1', 'benchmarking'],
      ['198.19.255.255', 'benchmarking, last'],
      ['198.51.100.7', 'documentation'],
      ['203.0.113.9', 'documentation'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.255', 'multicast, last'],
      ['240.0.0.1', 'reserved'],
      ['255.255.255.255', 'broadcast'],
    ])('refuses %s (%s)', (ip) => {
      expect(isPublicAddress(ip)).toBe(false);
    });

    it.each([
      '1.1.1.1',
      '8.8.8.8',
      '9.255.255.255', // just below 10/8
      '11.0.0.0', // just above 10/8
      '100.63.255.255', // just below CGNAT
      '100.128.0.0', // just above CGNAT
      '126.255.255.255',
      '128.0.0.0',
      '169.253.255.255',
      '169.255.0.0',
      '172.15.255.255', // just below 172.16/12
      '172.32.0.0', // just above 172.16/12
      '192.88.98.255',
      '192.167.255.255',
      '192.169.0.0',
      '198.17.255.255',
      '198.20.0.0',
      '223.255.255.255', // just below multicast
    ])('accepts the public address %s', (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    });
  });

  describe('IPv6', () => {
    it.each([
      ['::', 'unspecified'],
      ['::1', 'loopback'],
      ['0:0:0:0:0:0:0:1', 'loopback, written out'],
      ['fc00::1', 'unique local'],
      ['fdff:ffff::1', 'unique local, high'],
      ['fe80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local with a zone'],
      ['febf:ffff::1', 'link-local, last'],
      ['fec0::1', 'site-local'],
      ['ff02::1', 'multicast'],
      ['100::1', 'discard'],
      ['2001:db8::1', 'documentation'],
      ['3fff::1', 'documentation (3fff::/20)'],
      ['2001::1', 'Teredo'],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo, a real-looking one'],
      ['2001:2::1', 'benchmarking'],
      ['2001:1ff:ffff::1', 'IETF protocol assignments, last /32'],
      ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
      ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
      ['::ffff:10.0.0.1', 'IPv4-mapped private'],
      ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata'],
      ['::ffff:0:127.0.0.1', 'IPv4-translated loopback'],
      ['::ffff:0:a00:1', 'IPv4-translated private'],
      ['64:ff9b::7f00:1', 'NAT64 loopback'],
      ['64:ff9b::10.1.2.3', 'NAT64 private'],
      ['64:ff9b::a9fe:a9fe', 'NAT64 metadata'],
      ['64:ff9b:1::808:808', 'local-use NAT64 (64:ff9b:1::/48)'],
      ['64:ff9b:1:ffff::1', 'local-use NAT64, high'],
      ['2002:7f00:1::', '6to4 of loopback'],
      ['2002:a00:1::1', '6to4 of 10.0.0.1'],
      ['2002:c0a8:101::', '6to4 of 192.168.1.1'],
      ['::7f00:1', 'IPv4-compatible (deprecated)'],
      ['::8.8.8.8', 'IPv4-compatible public (deprecated)'],
      ['1::1', 'reserved, outside global unicast'],
      ['4000::1', 'reserved, outside global unicast'],
      ['5f00::1', 'SRv6 SIDs'],
    ])('refuses %s (%s)', (ip) => {
      expect(isPublicAddress(ip)).toBe(false);
    });

    it.each([
      '2606:4700:4700::1111',
      '2a00:1450:4007:80c::200e',
      '2001:200::1', // the first allocation after the IETF block 2001::/23
      '2001:4860:4860::8888',
      '2002:808:808::1', // 6to4 of 8.8.8.8
      '64:ff9b::808:808', // NAT64 of 8.8.8.8 (what DNS64 gives for an IPv4-only host)
      '::ffff:8.8.8.8', // IPv4-mapped 8.8.8.8
      '::ffff:0:8.8.8.8', // IPv4-translated 8.8.8.8
      '3fff:1000::1', // just after 3fff::/20
      '2001:db9::1', // just after the documentation /32
    ])('accepts the public address %s', (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    });

    it('reads the written forms of IPv6, refusing malformed ones', () => {
      expect(ipv6Groups('::ffff:127.0.0.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
      expect(ipv6Groups('2002:7f00:1::')).toEqual([0x2002, 0x7f00, 1, 0, 0, 0, 0, 0]);
      expect(ipv6Groups('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      for (const bad of [
        '1:2:3:4:5:6:7',
        '1::2::3',
        '1:2:3:4:5:6:7:8:9',
        '::g',
        '::1.2.3.256',
        '1:2:3:4:5:6:7::8',
      ])
        expect(ipv6Groups(bad)).toBeNull();
    });
  });

  it.each(['', 'localhost', 'example.com', '999.1.1.1', 'not an ip'])(
    'refuses %j, which is not an IP address',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(false);
    },
  );

  describe('URLs', () => {
    it.each([
      'http://localhost:3000/hook',
      'http://LOCALHOST./hook',
      'http://api.localhost/x',
      'http://printer.local/x',
      'http://metadata.google.internal/x',
      'http://127.0.0.1/x',
      'http://127.1/x',
      'http://2130706433/x', // decimal 127.0.0.1
      'http://0x7f.1/x', // hex
      'http://0x7f000001/x',
      'http://0177.0.0.1/x', // octal
      'http://017700000001/x',
      'http://%31%32%37.0.0.1/x', // percent-encoded
      'http://[::1]/x',
      'http://[::]/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://[::ffff:7f00:1]/x',
      'http://[::ffff:0:7f00:1]/x',
      'http://[64:ff9b::127.0.0.1]/x',
      'http://[64:ff9b:1::8.8.8.8]/x',
      'http://[2002:7f00:1::]/x',
      'http://[2001::1]/x',
      'http://[fe80::1]/x',
      'http://[fd00::1]/x',
      'http://10.1.2.3/x',
      'http://100.64.0.1/x',
      'http://192.168.0.10:8080/x',
      'http://169.254.169.254/latest/meta-data',
      'http://0xa9fea9fe/latest', // 169.254.169.254
      'http://intranet/x',
      'http://0/x',
      'http://0.0.0.0/x',
      'not a url',
    ])('refuses the URL %s', (url) => {
      expect(isPublicUrl(url)).toBe(false);
    });

    it.each([
      'https://merchant.example.com/webhooks',
      'http://8.8.8.8/x',
      'http://134744072/x', // decimal 8.8.8.8
      'https://[2606:4700::1]/x',
      'https://[::ffff:8.8.8.8]/x',
      'https://[64:ff9b::8.8.8.8]/x',
    ])('accepts the URL %s', (url) => {
      expect(isPublicUrl(url)).toBe(true);
    });
  });
});
