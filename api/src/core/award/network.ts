import { isIPv4, isIPv6 } from 'node:net';

/** The 16 bits of each group of an IPv6 address, expanded ('::' filled in). */
function ipv6Groups(address: string): number[] | null {
  const [head = '', tail] = address.split('::');
  const part = (text: string) => (text ? text.split(':').map((group) => parseInt(group, 16)) : []);
  const front = part(head);
  const back = tail === undefined ? [] : part(tail);
  const groups =
    tail === undefined ? front : [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group)) ? groups : null;
}

/**
 * The network a request comes from, as votes and their limits count it: an IPv4 address as it is (a
 * venue's wifi behind one address is one network), an IPv6 address as its /64 (one household or
 * site), written 'xxxx:xxxx:xxxx:xxxx::/64'.
 */
export function networkOf(ip: string): string {
  const address = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  if (isIPv4(address)) return address;
  if (isIPv6(address)) {
    const groups = ipv6Groups(address.split('%')[0]!);
    if (groups)
      return `${groups
        .slice(0, 4)
        .map((group) => group.toString(16))
        .join(':')}::/64`;
  }
  return 'unbekannt';
}

/**
 * A network as the admin sees it: an IPv4 address as its /24 ('203.0.113.x'), an IPv6 /64 as its
 * /48 ('2001:db8:1::/48'). Enough to tell the venue's wifi from the rest without naming a household.
 */
export function shownNetwork(network: string): string {
  if (isIPv4(network)) return `${network.split('.').slice(0, 3).join('.')}.x`;
  if (network.endsWith('::/64')) return `${network.split(':').slice(0, 3).join(':')}::/48`;
  return network;
}
