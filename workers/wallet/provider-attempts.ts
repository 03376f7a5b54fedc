import { statusAttempt, transferAttempt } from "../core/provider-attempts";
import type { Provider } from "../core/providers";
import type { GameProviderPort, TransferOutcome, TransferStatus } from "../ports/provider";
import type { WalletContext } from "./context";
import { providerPortFor } from "./provider-port";

/**
 * The provider port as the wallet's sagas use it (decision 049): each transfer and status
 * query is written to the wallet's outbox with its outcome, synchronously after the answer,
 * and reaches D1 (provider_attempts) with the next projection, like the orders it concerns.
 * `orderCode` is the deposit, withdrawal or reward the call is for; the reference is the one
 * sent (`<code>B` for a bonus, `<code>R` for a returned credit, `<code>-<n>` after a staff retry).
 */
export type AttemptedPort = Pick<GameProviderPort, "turnover" | "transfer" | "transferStatus">;

export function attemptedPort(w: WalletContext, agencyId: string, provider: Provider, orderCode: string): AttemptedPort {
  const port = providerPortFor(w.env, agencyId, provider);
  return {
    turnover: (username, since) => port.turnover(username, since),
    async transfer(input): Promise<TransferOutcome> {
      const outcome = await port.transfer(input);
      recordAttempt(w, {
        provider,
        orderCode,
        reference: input.reference,
        op: input.direction === "in" ? "transfer_in" : "transfer_out",
        result: transferAttempt(outcome),
      });
      return outcome;
    },
    async transferStatus(reference): Promise<TransferStatus> {
      const status = await port.transferStatus(reference);
      recordAttempt(w, { provider, orderCode, reference, op: "status", result: statusAttempt(status) });
      return status;
    },
  };
}

/**
 * A transfer-out sent by the withdraw service (workers/services/withdrawals/withdraw.ts) and reported to
 * the wallet with its answer: written like the wallet's own calls. `detail` is the provider's
 * code when refused, the port's reason when unknown.
 */
export function recordTransferOut(w: WalletContext, provider: string, code: string, outcome: "ok" | "refused" | "unknown", detail: string | undefined): void {
  const answer =
    outcome === "ok"
      ? { kind: "ok" as const }
      : outcome === "refused"
        ? { kind: "refused" as const, code: detail ?? "REFUSED" }
        : { kind: "unknown" as const, reason: detail ?? "no answer" };
  recordAttempt(w, { provider, orderCode: code, reference: code, op: "transfer_out", result: transferAttempt(answer) });
}

function recordAttempt(w: WalletContext, input: Omit<Parameters<WalletContext["store"]["attempts"]["record"]>[0], "at">): void {
  w.store.attempts.record({ ...input, at: Date.now() });
}
