import { isIPv4, isIPv6 } from "node:net";
import type { HandlerContext } from "@connectrpc/connect";
import { CLIENT_ADDRESS_HEADER } from "@signage/auth";

/** Calls without the gateway's address header (internal callers) are counted as one address. */
const NO_ADDRESS = "unknown";

/** The client address of a call as the gateway reported it (`x-client-address`), grouped as guesses are counted. */
export function clientAddressOf(ctx: HandlerContext): string {
  return addressGroup(ctx.requestHeader.get(CLIENT_ADDRESS_HEADER));
}

/**
 * IPv4 as it is (also when IPv4-mapped); IPv6 by its /64, the block one subscriber is usually
 * given: counted address by address, one client would have 2^64 counts to spend. Anything else
 * (a proxy's "unknown") is counted as given, cut to 64 characters.
 */
export function addressGroup(raw: string | null | undefined): string {
  const address = raw?.trim() ?? "";
  if (!address) return NO_ADDRESS;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(address)) return address;
  const withoutZone = address.split("%")[0];
  if (isIPv6(withoutZone)) return `${ipv6Groups(withoutZone).slice(0, 4).join(":")}::/64`;
  return address.slice(0, 64);
}

/** The eight groups of a valid IPv6 address, "::" expanded and a dotted IPv4 tail as two groups. */
function ipv6Groups(address: string): string[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill("0"), ...tailGroups];
  return groups.map((group) => parseInt(group, 16).toString(16));
}
