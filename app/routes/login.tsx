import { useTranslation } from "react-i18next";

export default function Login() {
  const { t } = useTranslation();
  return (
    <section className="page narrow">
      <title>{t("nav.login")}</title>
      <h1>{t("nav.login")}</h1>
      <p>{t("comingSoon")}</p>
    </section>
  );
}
