import { describe, expect, it } from "vitest";
import { csvRows, moneyByProviderTable, moneyTable, periodLabel, playersTable, promotionsTable, screenCell, TOTAL } from "~/lib/report-tables";
import type { MoneyReport, PlayersReport, PromotionsReport } from "../../workers/services/reports";

/** Keys as the translation would give them, so the test reads what a header or a label is. */
const t = ((key: string, options?: { defaultValue?: string }) => (key.startsWith("common:providers.") ? (options?.defaultValue ?? key) : key)) as never;

const zero = {
  depositCount: 0,
  depositKip: 0,
  depositCredit: 0,
  withdrawCount: 0,
  withdrawCredit: 0,
  withdrawKipPaid: 0,
  netKip: 0,
  bonusGiven: 0,
  bonusDeducted: 0,
  manualCredit: 0,
  manualCreditKip: 0,
  manualCount: 0,
  refundKip: 0,
  refundCount: 0,
};
const money: MoneyReport = {
  periods: [
    { ...zero, period: "2026-11-23", depositCount: 2, depositKip: 12_000_000, depositCredit: 20_000, netKip: 12_000_000 },
    { ...zero, period: "2026-11-24", withdrawCount: 1, withdrawCredit: 5_050, withdrawKipPaid: 2_929_000, netKip: -2_929_000 },
  ],
  byProvider: [
    {
      ...zero,
      period: "2026-11-23/2026-11-24",
      provider: "betflix",
      depositCount: 2,
      depositKip: 12_000_000,
      depositCredit: 20_000,
      withdrawCount: 1,
      withdrawCredit: 5_050,
      withdrawKipPaid: 2_929_000,
      netKip: 9_071_000,
    },
  ],
  total: {
    ...zero,
    period: "2026-11-23/2026-11-24",
    depositCount: 2,
    depositKip: 12_000_000,
    depositCredit: 20_000,
    withdrawCount: 1,
    withdrawCredit: 5_050,
    withdrawKipPaid: 2_929_000,
    netKip: 9_071_000,
  },
};

describe("report tables: the screen and the CSV show the same figures", () => {
  it("money: Lao grouping on screen, plain numbers in the CSV, negative net kept numeric", () => {
    const table = moneyTable(money);
    expect(table.rows).toHaveLength(2);
    expect(table.totals[0][0]).toBe(TOTAL);
    const net = table.columns.findIndex((c) => c.key === "netKip");
    const credit = table.columns.findIndex((c) => c.key === "withdrawCredit");
    expect(screenCell("kip", table.rows[0][2], t)).toBe("₭120.000");
    expect(screenCell("kip", table.rows[1][net], t)).toBe("-₭29.290");
    expect(screenCell("credit", table.rows[1][credit], t)).toBe("฿50,50");
    const csv = csvRows(table, t);
    expect(csv[0].slice(0, 3)).toEqual(["reports.columns.period", "reports.columns.depositCount", "reports.columns.depositKip"]);
    expect(csv[1].slice(0, 4)).toEqual(["2026-11-23", 2, "120000", "200.00"]);
    expect(csv[2][net]).toBe("-29290");
    expect(csv[2][credit]).toBe("50.50");
    expect(csv[3][0]).toBe("reports.total");
    expect(csv[3][net]).toBe("90710");
  });

  it("money by provider: one row per provider, summed when the service gives several", () => {
    const twice = {
      ...money,
      byProvider: [
        ...money.byProvider,
        { ...money.byProvider[0], depositCount: 1, depositKip: 100, depositCredit: 1, withdrawCount: 0, withdrawCredit: 0, withdrawKipPaid: 0, netKip: 100 },
      ],
    };
    const table = moneyByProviderTable(twice);
    expect(table.rows).toHaveLength(1);
    expect(table.rows[0].slice(0, 3)).toEqual(["betflix", 3, 12_000_100]);
    expect(screenCell("provider", "betflix", t)).toBe("betflix");
  });

  it("players: conversion as a percentage with one decimal, none without registrations", () => {
    const players: PlayersReport = {
      periods: [
        { period: "2026-11-24T09", registrations: 8, firstDeposits: 3, conversion: 3 / 8, activeDepositors: 5, returningDepositors: 2 },
        { period: "2026-11-24T10", registrations: 0, firstDeposits: 0, conversion: null, activeDepositors: 0, returningDepositors: 0 },
      ],
      total: { period: "2026-11-24/2026-11-24", registrations: 8, firstDeposits: 3, conversion: 3 / 8, activeDepositors: 5, returningDepositors: 2 },
    };
    const table = playersTable(players);
    expect(screenCell("percent", table.rows[0][3], t)).toBe("37,5 %");
    expect(screenCell("percent", table.rows[1][3], t)).toBe("common.none");
    const csv = csvRows(table, t);
    expect(csv[1][0]).toBe("2026-11-24 09:00");
    expect(csv[1][3]).toBe("37.5");
    expect(csv[2][3]).toBeNull();
    expect(periodLabel("2026-11-24T09")).toBe("09:00");
    expect(periodLabel("2026-11-24")).toBe("24/11/2026");
  });

  it("promotions: the title in the staff member's language (Lao when missing), a total row", () => {
    const promotions: PromotionsReport = {
      promotions: [
        {
          promotionId: "a",
          title: { lo: "ໂບນັດ", cn: "奖金" },
          claims: 3,
          completed: 1,
          cancelled: 1,
          bonusGiven: 10_000,
          bonusDeducted: 2_500,
          bonusCost: 7_500,
        },
        { promotionId: "b", title: { lo: "=1+1" }, claims: 1, completed: 0, cancelled: 0, bonusGiven: 0, bonusDeducted: 0, bonusCost: 0 },
      ],
    };
    const table = promotionsTable(promotions, "cn");
    expect(table.rows.map((r) => r[0])).toEqual(["奖金", "=1+1"]);
    expect(table.totals[0]).toEqual([TOTAL, 4, 1, 1, 10_000, 2_500, 7_500]);
    expect(csvRows(table, t)[3]).toEqual(["reports.total", 4, 1, 1, "100.00", "25.00", "75.00"]);
  });
});
