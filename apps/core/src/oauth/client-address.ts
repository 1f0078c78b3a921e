import { isIPv4, isIPv6 } from "node:net";
import type { HandlerContext } from "@connectrpc/connect";
import { CLIENT_ADDRESS_HEADER } from "@signage/auth";

/** Calls without the gateway's address header (internal callers) are counted as one address. */
const NO_ADDRESS = "unknown";
/** So is everything that is no IP address (a proxy's "unknown"): free text would give each spelling a count of its own. */
const NOT_AN_ADDRESS = "unparsed";

/** The client address of a call as the gateway reported it (`x-client-address`), grouped as guesses are counted. */
export function clientAddressOf(ctx: HandlerContext): string {
  return addressGroup(ctx.requestHeader.get(CLIENT_ADDRESS_HEADER));
}

/**
 * IPv4 as it is (also when IPv4-mapped, in any spelling); IPv6 by its /64, the block one subscriber
 * is usually given: counted address by address, one client would have 2^64 counts to spend. A port
 * some proxies append ("203.0.113.7:5678", "[2001:db8::1]:443") is dropped: counted with it, each
 * source port would be an address of its own.
 */
export function addressGroup(raw: string | null | undefined): string {
  const address = withoutPort(raw?.trim() ?? "");
  if (!address) return NO_ADDRESS;
  if (isIPv4(address)) return address;
  const withoutZone = address.split("%")[0];
  if (!isIPv6(withoutZone)) return NOT_AN_ADDRESS;
  const groups = ipv6Groups(withoutZone);
  const mapped = groups.slice(0, 5).every((g) => g === "0") && groups[5] === "ffff";
  if (mapped) return [groups[6], groups[7]].flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]).join(".");
  return `${groups.slice(0, 4).join(":")}::/64`;
}

function withoutPort(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) return bracketed[1];
  const ipv4WithPort = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(address);
  return ipv4WithPort ? ipv4WithPort[1] : address;
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
