import { z } from "zod";

/**
 * The player's transfer slip (decision 087): the order's code comes from the address, the picture
 * from a multipart file field. Here only that a file came; the service judges its bytes (an image,
 * the size, a OneProof QR in it). Messages are keys of the player namespace.
 */
export const depositSlipSchema = z.object({
  slip: z.instanceof(File, { error: "depositSlip.errors.SLIP_REQUIRED" }).refine((file) => file.size > 0, { error: "depositSlip.errors.SLIP_REQUIRED" }),
});
