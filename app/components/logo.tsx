import type { BrandImage } from "@workers/core/brand";
import { fitImage } from "@workers/core/brand-style";

/** The box a logo is drawn into: the navbar's height, and a width that leaves room for the actions on a phone. */
const LOGO_BOX = { width: 160, height: 40 } as const;

/**
 * The agency's logo (its brand upload, drawn at the navbar's height with its real aspect
 * ratio, so nothing shifts), else the default /logo.svg. The alt text is the site name.
 */
export function Logo({ name, logo, lazy = false }: { name: string; logo: BrandImage | null; lazy?: boolean }) {
  const size = logo ? fitImage(logo.width, logo.height, LOGO_BOX.width, LOGO_BOX.height) : { width: 100, height: 40 };
  return (
    <img
      src={logo?.url ?? "/logo.svg"}
      alt={name}
      width={size.width}
      height={size.height}
      className="logo"
      {...(lazy ? { loading: "lazy" as const, decoding: "async" as const } : {})}
    />
  );
}
