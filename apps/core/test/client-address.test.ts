// Plain unit: how a client address reported by the gateway is grouped for counting password
// guesses (oauth/client-address.ts). IPv6 by /64: one subscriber is usually given a whole /64, and
// counted address by address it would have 2^64 counts to spend.
import { describe, expect, it } from "vitest";
import { addressGroup } from "../src/oauth/client-address.js";

describe("addressGroup", () => {
  it("IPv4 as it is, also IPv4-mapped IPv6 in any spelling", () => {
    for (const address of ["203.0.113.7", " 203.0.113.7 ", "::ffff:203.0.113.7", "::FFFF:cb00:7107", "0:0:0:0:0:ffff:203.0.113.7", "0000:0000:0000:0000:0000:ffff:cb00:7107"]) {
      expect(addressGroup(address), address).toBe("203.0.113.7");
    }
  });

  it("a port some proxies append is dropped: each source port is no address of its own", () => {
    expect(addressGroup("203.0.113.7:5678")).toBe("203.0.113.7");
    expect(addressGroup("[2001:db8:1:2::1]:443")).toBe("2001:db8:1:2::/64");
    expect(addressGroup("[2001:db8:1:2::1]")).toBe("2001:db8:1:2::/64");
  });

  it("IPv6 by its /64, whatever its spelling (case, '::', zone, dotted tail)", () => {
    const group = "2001:db8:1:2::/64";
    for (const address of ["2001:db8:1:2:3:4:5:6", "2001:DB8:1:2::7", "2001:0db8:0001:0002::", "2001:db8:1:2::1%eth0", "2001:db8:1:2::192.0.2.1"]) expect(addressGroup(address), address).toBe(group);
    expect(addressGroup("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressGroup("2001:db8:1:3::1")).not.toBe(group);
  });

  it("no address (an internal caller) is one group, and anything that is no IP address another: free text gets no count per spelling", () => {
    expect(addressGroup(null)).toBe("unknown");
    expect(addressGroup("")).toBe("unknown");
    for (const text of ["unknown", "proxy-said-so", "x".repeat(100), "203.0.113.7:port", "[not-an-address]:1"]) expect(addressGroup(text), text).toBe("unparsed");
  });
});
