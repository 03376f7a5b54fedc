import { describe, expect, it } from "vitest";
import { addressKey, strangerKeys } from "../../workers/core/throttle";
import { readDeviceCookie, writeDeviceCookie } from "../../workers/services/login";

describe("addresses and keys (decision 011)", () => {
  it("groups an IPv6 address by its /64; IPv4 stays as it is", () => {
    expect(addressKey("2001:db8:abcd:12::1")).toBe("2001:db8:abcd:12::/64");
    expect(addressKey("2001:0db8:abcd:0012:ffff:1:2:3")).toBe("2001:db8:abcd:12::/64");
    expect(addressKey("2001:DB8:ABCD:12:0:0:0:9")).toBe("2001:db8:abcd:12::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("2001:db8:abcd:13::1")).not.toBe(addressKey("2001:db8:abcd:12::1"));
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("local")).toBe("local");
  });

  it("a stranger is judged per account+address, address, account and agency; staff keys are their own", () => {
    const player = strangerKeys({ realm: "player", agencyId: "a", username: "u", ip: "2001:db8:1:2::5", deviceNonce: null });
    expect(player.map((k) => `${k.kind}=${k.id}`)).toEqual(["acct-ip=a:u:2001:db8:1:2::/64", "ip=a:2001:db8:1:2::/64", "acct=a:u", "agency=player:a"]);
    const staff = strangerKeys({ realm: "staff", agencyId: "a", username: "u", ip: "1.2.3.4", deviceNonce: null });
    for (const key of staff) expect(key.id.startsWith("staff:")).toBe(true);
  });
});

describe("device cookie", () => {
  const config = { secrets: ["s".repeat(40)] };
  it("round-trips, keeps five accounts newest first, and refuses a forged or re-used entry", async () => {
    let value = "";
    for (let i = 0; i < 7; i++)
      value = await writeDeviceCookie(config, await readDeviceCookie(config, value), { realm: "player", agencyId: "demo", username: `p${i}` });
    const entries = await readDeviceCookie(config, value);
    expect(entries.map((e) => e.username)).toEqual(["p6", "p5", "p4", "p3", "p2"]);
    // another username with the same signature, another agency, another secret: nothing
    expect(await readDeviceCookie(config, value.replace("p.demo.p6.", "p.demo.boss."))).toHaveLength(4);
    expect(await readDeviceCookie(config, value.replaceAll("p.demo.", "p.other."))).toHaveLength(0);
    expect(await readDeviceCookie({ secrets: ["t".repeat(40)] }, value)).toHaveLength(0);
    // a rotated secret list (new first) still reads the old cookie
    expect(await readDeviceCookie({ secrets: ["t".repeat(40), "s".repeat(40)] }, value)).toHaveLength(5);
    // logging in again keeps the device's nonce for that account
    const again = await writeDeviceCookie(config, entries, { realm: "player", agencyId: "demo", username: "p4", nonce: entries[2].nonce });
    expect((await readDeviceCookie(config, again))[0]).toEqual(entries[2]);
  });
});
