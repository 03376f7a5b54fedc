import { z } from "zod";
import { UNLINK_REASON_MAX } from "@workers/core/linked-accounts";

/**
 * The owner's unlink of two linked players (decision 093): which player, and why they are not
 * one person ("mother and son, one phone"), kept in the unlink and the audit log. Messages are
 * keys of the `admin` namespace.
 */
export const UnlinkSchema = z
  .object({
    intent: z.literal("unlink"),
    otherId: z.string({ error: "admin:linked.validation.reason" }).min(1).max(64),
    reason: z
      .string({ error: "admin:linked.validation.reason" })
      .trim()
      .min(3, { error: "admin:linked.validation.reason" })
      .max(UNLINK_REASON_MAX, { error: "admin:linked.validation.reasonMax" }),
  })
  .meta({ id: "player-unlink" });
