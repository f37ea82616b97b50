import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a webhook may reach: public unicast addresses only (unless the operator sets
 * WEBHOOK_ALLOW_PRIVATE_URLS), so that a merchant's endpoint cannot make the service call its own
 * network (loopback, private ranges, cloud metadata at 169.254.169.254). Checked on the URL at
 * create/update, and on every resolved address when connecting (docs/api.md, "Webhooks").
 *
 * IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-translated, NAT64's well-known prefix,
 * 6to4) are judged by that IPv4 address; other IPv6 addresses must be global unicast (2000::/3)
 * outside the special-purpose blocks below.
 */

const blockedV4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", incl. the unspecified 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast 255.255.255.255
] as const) {
  blockedV4.addSubnet(net, prefix, 'ipv4');
}

type Groups = number[];
const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** IPv6 prefixes whose addresses stand for an IPv4 address, and where it sits. */
const EMBEDDING: ReadonlyArray<[net: string, prefix: number, ipv4: (g: Groups) => string]> = [
  ['::ffff:0:0', 96, (g) => v4Of(g[6], g[7])], // IPv4-mapped
  ['::ffff:0:0:0', 96, (g) => v4Of(g[6], g[7])], // IPv4-translated (SIIT)
  ['64:ff9b::', 96, (g) => v4Of(g[6], g[7])], // NAT64, well-known prefix
  ['2002::', 16, (g) => v4Of(g[1], g[2])], // 6to4
];

/** Special-purpose blocks inside global unicast 2000::/3. */
const REFUSED_V6: ReadonlyArray<[net: string, prefix: number]> = [
  ['2001::', 23], // IETF protocol assignments: Teredo 2001::/32, benchmarking, ORCHID
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
];

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 and a zone allowed), or null. */
export function ipv6Groups(ip: string): Groups | null {
  let s = ip.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (dotted) {
    const p = dotted.slice(1).map(Number);
    if (p.some((n) => n > 255)) return null;
    s = `${s.slice(0, -dotted[0].length)}${((p[0] << 8) | p[1]).toString(16)}:${((p[2] << 8) | p[3]).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const part = (h: string) => (h === '' ? [] : h.split(':'));
  const head = part(halves[0]);
  const tail = halves.length === 2 ? part(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array<string>(missing).fill('0'), ...tail];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return all.map((g) => parseInt(g, 16));
}

function inPrefix(g: Groups, net: string, prefix: number): boolean {
  const n = ipv6Groups(net)!;
  for (let bit = 0; bit < prefix; bit += 16) {
    const bits = Math.min(16, prefix - bit);
    const mask = (0xffff << (16 - bits)) & 0xffff;
    if ((g[bit / 16] & mask) !== (n[bit / 16] & mask)) return false;
  }
  return true;
}

function isPublicIpv6(ip: string): boolean {
  const g = ipv6Groups(ip);
  if (!g) return false;
  for (const [net, prefix, ipv4] of EMBEDDING) {
    if (inPrefix(g, net, prefix)) return isPublicIpv4(ipv4(g));
  }
  if (!inPrefix(g, '2000::', 3)) return false; // loopback, unspecified, ULA, link-local, multicast, reserved…
  return !REFUSED_V6.some(([net, prefix]) => inPrefix(g, net, prefix));
}

function isPublicIpv4(ip: string): boolean {
  return !blockedV4.check(ip, 'ipv4');
}

/** True for an IP literal that is a public unicast address. */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return isPublicIpv4(ip);
  if (family === 6) return isPublicIpv6(ip);
  return false;
}

/**
 * What can be said from the URL alone: false for loopback names, single-label names and
 * non-public IP literals (in any form the URL parser reads: 2130706433, 0x7f.1, 0177.0.0.1 and
 * [::ffff:127.0.0.1] are all 127.0.0.1). Other host names are checked after DNS resolution, when
 * delivering.
 */
export function isPublicUrl(raw: string): boolean {
  let host: string;
  try {
    host = new URL(raw).hostname.toLowerCase(); // WHATWG parsing turns 2130706433, 0x7f.1 and the like into dotted IPv4
  } catch {
    return false;
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  host = host.replace(/\.$/, '');
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal')
  )
    return false;
  if (isIP(host)) return isPublicAddress(host);
  return host.includes('.');
}
