import { useEffect, useRef, useState } from "react";
import { useNavigation } from "react-router";
import { useTranslation } from "react-i18next";
import type { BrandImage } from "@workers/core/brand";
import { Icon } from "./icons";
import { Logo } from "./logo";
import { PENDING, SCROLL_TOP, TOAST, TOAST_DURATION, hookProps } from "~/lib/lite/hooks";

export type ToastData = { message: string; type: "success" | "error" | "info" | "warning"; description?: string; duration?: number };

/** docs/product.md §9: one toast at a time, 5000 ms, F8 moves focus to it, a 50 px swipe dismisses it. */
export const TOAST_DURATION_MS = 5000;
const TOAST_HOTKEY = "F8";
export const TOAST_SWIPE_PX = 50;

/**
 * Server-rendered, so a toast shows without JavaScript too (it stays until the next page).
 * With JavaScript it disappears after its duration, on a swipe or on its close button.
 */
export function Toaster({ toast }: { toast: ToastData | null }) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState<ToastData | null>(toast);
  const ref = useRef<HTMLElement>(null);
  const startX = useRef<number | null>(null);

  useEffect(() => setCurrent(toast), [toast]);
  useEffect(() => {
    if (!current) return;
    const timer = setTimeout(() => setCurrent(null), current.duration ?? TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [current]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === TOAST_HOTKEY) {
        event.preventDefault();
        ref.current?.querySelector<HTMLElement>(".toast")?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <section ref={ref} className="toast-region" aria-label={t("toast.region")} data-testid="toast-region">
      {current && (
        <div
          className={`toast toast-${current.type}`}
          role={current.type === "error" ? "alert" : "status"}
          tabIndex={-1}
          {...hookProps(TOAST)}
          {...hookProps(TOAST_DURATION, current.duration ?? TOAST_DURATION_MS)}
          onPointerDown={(e) => (startX.current = e.clientX)}
          onPointerUp={(e) => {
            if (startX.current !== null && Math.abs(e.clientX - startX.current) >= TOAST_SWIPE_PX) setCurrent(null);
            startX.current = null;
          }}
        >
          <div>
            <p className="toast-message">{current.message}</p>
            {current.description && <p className="toast-description">{current.description}</p>}
          </div>
          <button type="button" className="icon-button js-only" onClick={() => setCurrent(null)}>
            <Icon name="close" size={16} />
            <span className="sr-only">{t("toast.dismiss")}</span>
          </button>
        </div>
      )}
    </section>
  );
}

/** docs/product.md §9: the spinner appears only after 1000 ms of pending navigation, then stays >= 500 ms. */
export const PENDING_DELAY_MS = 1000;
export const PENDING_MIN_MS = 500;

/**
 * `serverOnly`: a page without React (decision 034) gets the indicator rendered hidden; the
 * lite script's pending part (lib/lite/pending.ts) shows it on the same timing.
 */
export function PendingIndicator({ logoAlt, logo, serverOnly = false }: { logoAlt: string; logo: BrandImage | null; serverOnly?: boolean }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle";
  const [visible, setVisible] = useState(false);
  const shownAt = useRef(0);

  useEffect(() => {
    if (pending && !visible) {
      const timer = setTimeout(() => {
        shownAt.current = Date.now();
        setVisible(true);
      }, PENDING_DELAY_MS);
      return () => clearTimeout(timer);
    }
    if (!pending && visible) {
      const remaining = Math.max(0, PENDING_MIN_MS - (Date.now() - shownAt.current));
      const timer = setTimeout(() => setVisible(false), remaining);
      return () => clearTimeout(timer);
    }
  }, [pending, visible]);

  if (!visible && !serverOnly) return null;
  return (
    <div className="pending" role="status" aria-live="polite" {...hookProps(PENDING)} hidden={serverOnly && !visible}>
      {/* rendered hidden on a lite page: lazy, so it is fetched only if the overlay shows */}
      <Logo name={logoAlt} logo={logo} lazy={serverOnly} />
      <span className="spinner" aria-hidden="true" />
      <span className="sr-only">{t("pending")}</span>
    </div>
  );
}

/** docs/product.md §9: appears after 500 px of scrolling; scrolls smoothly back to the top. */
export const SCROLL_TOP_THRESHOLD_PX = 500;

/**
 * `serverOnly`: a page without React (decision 021) gets the button rendered hidden; the
 * lite script (lib/lite-page.server.ts) shows it and scrolls.
 */
export function ScrollToTop({ serverOnly = false }: { serverOnly?: boolean }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > SCROLL_TOP_THRESHOLD_PX);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  if (!visible && !serverOnly) return null;
  return (
    <button type="button" className="scroll-top" {...hookProps(SCROLL_TOP)} hidden={serverOnly} onClick={() => window.scrollTo({ top: 0, behavior: "smooth" })}>
      <Icon name="up" />
      <span className="sr-only">{t("scrollTop")}</span>
    </button>
  );
}
