import { data, Link } from "react-router";
import { useTranslation } from "react-i18next";

/** Unknown paths: a translated 404 inside the layout. */
/** The translation key groups this page renders (decision 032). */
export const handle = { i18n: ["errors.notFound", "errors.backHome"] };

export function loader() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="page narrow" data-testid="not-found">
      <title>{t("errors.notFound.title")}</title>
      <h1>{t("errors.notFound.title")}</h1>
      <p>{t("errors.notFound.body")}</p>
      <Link to="/" className="button button-primary">
        {t("errors.backHome")}
      </Link>
    </section>
  );
}
