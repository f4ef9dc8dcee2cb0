import ipaddr from 'ipaddr.js';

/*
 * Which addresses a server fetching on a user's behalf may connect to: public unicast
 * only. ipaddr.js names the ranges; anything it does not call plain `unicast` is refused,
 * and so is every IPv6 form that embeds an IPv4 address (mapped, IPv4-compatible, NAT64,
 * 6to4, Teredo), whatever that address is: they reach IPv4 hosts by routes this check
 * cannot see through.
 */

const EMBEDDING_V6: Array<[string, number]> = [
  ['::', 96], // IPv4-compatible `::a.b.c.d` (deprecated) and `::`, `::1`
  ['::ffff:0:0', 96], // IPv4-mapped
  ['::ffff:0:0:0', 96], // SIIT (RFC 6145)
  ['64:ff9b::', 96], // NAT64 well-known prefix
  ['64:ff9b:1::', 48], // local-use NAT64
  ['2002::', 16], // 6to4
  ['2001::', 32], // Teredo
];
const embedding = EMBEDDING_V6.map(([net, bits]) => [ipaddr.IPv6.parse(net), bits] as const);

/** Why an address is refused, or undefined when it is a public unicast address. */
export function refusalOf(address: string): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return 'not an IP address';
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    for (const [net, bits] of embedding) if (v6.match(net, bits)) return 'an IPv6 form of an IPv4 address';
  }
  const range = parsed.range();
  return range === 'unicast' ? undefined : `a ${range} address`;
}
