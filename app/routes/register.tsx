import { useTranslation } from "react-i18next";

export default function Register() {
  const { t } = useTranslation();
  return (
    <section className="page narrow">
      <title>{t("nav.register")}</title>
      <h1>{t("nav.register")}</h1>
      <p>{t("comingSoon")}</p>
    </section>
  );
}
