import { z } from "zod";
import { recordFingerprint } from "@workers/services/players";
import { apiError, apiJson, readBody } from "~/lib/api.server";
import { getAgency, getBindings, getPlayer } from "~/lib/context.server";
import type { Route } from "./+types/fingerprint";

const text = (max: number) => z.string().max(max).default("");
/** docs/product.md §3 device fingerprint payload; bounded so a client cannot store megabytes. */
export const FingerprintSchema = z.object({
  screen: text(32),
  version: text(16),
  timezone: text(64),
  userAgent: text(512),
  plugins: text(2048),
  webGL: z
    .object({
      version: text(128),
      vendor: text(128),
      vendorUnmasked: text(256),
      renderer: text(128),
      rendererUnmasked: text(256),
      shadingLanguageVersion: text(128),
    })
    .partial()
    .default({}),
  audio: text(128),
  platform: text(64),
  fingerprint: z.string().regex(/^[a-f0-9]{16,128}$/),
  memory: text(16),
  fonts: text(2048),
  languages: text(256),
  hardwareConcurrency: text(16),
  vendor: text(128),
});

/** docs/product.md §7 `POST /api/v2/fingerprint`: stored per player with first and last seen. */
export async function action({ request, context }: Route.ActionArgs) {
  const player = getPlayer(context);
  if (!player) return apiError(context, "UNAUTHORIZED", 401);
  const parsed = FingerprintSchema.safeParse(await readBody(request));
  if (!parsed.success) return apiError(context, "VALIDATION_FAILED", 400);
  await recordFingerprint(getBindings(context).DB, getAgency(context).id, player.id, parsed.data.fingerprint, parsed.data);
  return apiJson({ ok: true, fingerprint: parsed.data.fingerprint, date: new Date().toISOString().slice(0, 10) });
}
