import { promises as dns, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Security-critical: a Web Push endpoint is an address a browser hands us and the server then
 * POSTs to. Left unchecked it is a blind SSRF (any user makes the server call 127.0.0.1, the
 * cloud metadata service or the office LAN). Only https to hosts whose every address is public
 * passes; the check runs when a subscription is saved and again before each send, and the send
 * connects to the very addresses checked (no second DNS answer, no redirect followed).
 */

/** Resolves a host name to all its addresses, as the connection would (`dns.lookup`, /etc/hosts included). */
export type Resolver = (host: string) => Promise<LookupAddress[]>;

/** Looked up at call time, so a test may stub `dns.promises.lookup`. */
export const systemResolver: Resolver = (host) => dns.lookup(host, { all: true, verbatim: true });

/** A slow resolver does not hold a request or a relay pass for long. */
const LOOKUP_TIMEOUT_MS = 5000;

/** The endpoint is refused by policy (scheme or address), not by a passing network failure. */
export class PushEndpointRefused extends Error {
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`push endpoint refused: ${host} ${reason}`);
    this.name = 'PushEndpointRefused';
  }
}

/** IPv4 ranges that are not the public internet (RFC 6890 and its updates). */
const NON_PUBLIC_IPV4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network", the unspecified address
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

const NON_PUBLIC_IPV6: ReadonlyArray<readonly [string, number]> = [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (private)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const hex16 = (high: number, low: number): string => ((high << 8) | low).toString(16);

/** The blocked addresses. IPv4 rules also match IPv4-mapped IPv6 (`::ffff:127.0.0.1`), as net.BlockList does. */
const blocked = new BlockList();
for (const [network, prefix] of NON_PUBLIC_IPV4) {
  blocked.addSubnet(network, prefix, 'ipv4');
  // The same ranges reached through IPv6 forms that carry an IPv4 address: NAT64 and 6to4.
  blocked.addSubnet(`64:ff9b::${network}`, 96 + prefix, 'ipv6');
  const [a = 0, b = 0, c = 0, d = 0] = network.split('.').map(Number);
  blocked.addSubnet(`2002:${hex16(a, b)}:${hex16(c, d)}::`, 16 + prefix, 'ipv6');
}
for (const [network, prefix] of NON_PUBLIC_IPV6) blocked.addSubnet(network, prefix, 'ipv6');

/** Whether an IP address (either family, zone id allowed) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return false;
  return !blocked.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

export type EndpointPolicy = {
  /** Test-only (PUSH_ALLOW_PRIVATE_ENDPOINTS_FOR_TESTS): plain http and private addresses pass, for a local push stand-in. */
  allowPrivate?: boolean;
  resolve?: Resolver;
};

function withTimeout<T>(promise: Promise<T>, host: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => { reject(new Error(`DNS lookup of ${host} timed out`)); }, LOOKUP_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => { clearTimeout(timer); });
}

/**
 * The addresses a push endpoint may be reached at. Throws PushEndpointRefused when the scheme is
 * not https or any address is not public; a failed lookup throws the resolver's error (a network
 * problem, worth a retry at send time).
 */
export async function checkPushEndpoint(endpoint: string, { allowPrivate = false, resolve = systemResolver }: EndpointPolicy = {}): Promise<LookupAddress[]> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new PushEndpointRefused('?', 'is not a URL');
  }
  // URL parsing already turned 2130706433 or 0x7f.1 into 127.0.0.1; IPv6 comes bracketed.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) throw new PushEndpointRefused(host, `uses ${url.protocol} (https only)`);
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await withTimeout(resolve(host), host);
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  if (!allowPrivate) {
    const inner = addresses.find(({ address }) => !isPublicAddress(address));
    if (inner) throw new PushEndpointRefused(host, `resolves to ${inner.address}, not a public address`);
  }
  return addresses;
}

/** A `lookup` for http(s).request that answers only the addresses already checked. */
export function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const asked = options.family;
    const family = asked === 4 || asked === 'IPv4' ? 4 : asked === 6 || asked === 'IPv6' ? 6 : 0;
    const usable = addresses.filter((entry) => family === 0 || entry.family === family);
    const first = usable[0];
    if (!first) {
      callback(Object.assign(new Error('no checked address of the family asked for'), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    if (options.all) callback(null, usable.map((entry) => ({ ...entry })));
    else callback(null, first.address, first.family);
  };
}
