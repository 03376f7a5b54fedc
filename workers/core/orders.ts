/**
 * Order state machines (docs/product.md §4; decisions 004 and 005). Every other arrow is refused, here and by the
 * storage guard (`UPDATE ... WHERE status = <from>`).
 */
export const ORDER_STATUSES = ["OPEN", "CANCELED", "PAID", "SUCCESS", "FAILED", "REJECTED"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * Deposit: OPEN (QR shown) -> PAID (gateway confirmed) -> SUCCESS | FAILED; OPEN -> CANCELED;
 * FAILED -> PAID only when staff retry the settlement from the back office (the kip is still
 * owed to the player; the saga runs again, asking the provider about the last reference first).
 */
export const DEPOSIT_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  OPEN: ["PAID", "CANCELED"],
  PAID: ["SUCCESS", "FAILED"],
  SUCCESS: [],
  FAILED: ["PAID"], // staff retry (workers/services/deposits/admin-deposits.ts retryDeposit)
  CANCELED: [],
  REJECTED: [],
};

export function canTransition(machine: Readonly<Record<OrderStatus, readonly OrderStatus[]>>, from: OrderStatus, to: OrderStatus): boolean {
  return machine[from].includes(to);
}

export function isFinal(machine: Readonly<Record<OrderStatus, readonly OrderStatus[]>>, status: OrderStatus): boolean {
  return machine[status].length === 0;
}

/** docs/product.md §4 display: REJECTED is shown as cancelled. */
export function displayStatus(status: OrderStatus): OrderStatus {
  return status === "REJECTED" ? "CANCELED" : status;
}
