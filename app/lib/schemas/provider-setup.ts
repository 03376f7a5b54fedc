import { z } from "zod";
import { PROVIDER_ADAPTERS } from "@workers/core/provider-setup";
import { PROVIDERS } from "@workers/core/providers";
import type { ProviderSetupInput } from "@workers/services/providers";

/**
 * The provider setup form (admin/settings/providers): one form per provider. Empty text
 * fields are "none"; the URLs and codes are checked by the service (https outside local,
 * what each adapter needs). Messages are keys of the admin namespace.
 */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: "admin:providerSetup.errors.tooLong" })
    .optional()
    .transform((v) => (v ? v : null));

export const ProviderSetupSchema = z.object({
  provider: z.enum(PROVIDERS, { error: "admin:providerSetup.errors.PROVIDER_UNKNOWN" }),
  adapter: z.enum(PROVIDER_ADAPTERS, { error: "admin:providerSetup.errors.PROVIDER_ADAPTER_INVALID" }),
  baseUrl: optionalText(300),
  productCode: optionalText(400),
  lobbyUrl: optionalText(300),
  imageUrl: optionalText(300),
  memberPrefix: optionalText(40),
  agent: optionalText(100),
  // Not trimmed: a secret is taken as typed.
  secret: z
    .string()
    .max(500, { error: "admin:providerSetup.errors.tooLong" })
    .optional()
    .transform((v) => (v ? v : null)),
}) satisfies z.ZodType<ProviderSetupInput>;
