import type { Provider } from "@workers/core/providers";

/**
 * A provider's mark: its name as a styled wordmark with a symbol of its own (app.css
 * `.pmark-*`), drawn in HTML and CSS: no request, no picture to wait for, and no trademark
 * copied (real logos are the providers'). The name is real text, so a link or heading made
 * of the mark is named by it; the symbol is decoration.
 */
const SYMBOL: Record<Provider, string> = {
  askmebet: "A",
  betflix: "B",
  gclub: "G",
  gclub_live: "G",
  alphabet: "α",
};

export function ProviderMark({ provider, name, size = "medium" }: { provider: Provider; name: string; size?: "small" | "medium" | "large" }) {
  return (
    <span className={`pmark pmark-${provider} pmark-${size}`} data-provider-mark={provider}>
      <span className="pmark-symbol" aria-hidden="true">
        {SYMBOL[provider]}
      </span>
      <span className="pmark-word">{name}</span>
    </span>
  );
}
