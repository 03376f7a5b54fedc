import { useTranslation } from "react-i18next";
import { requireStaff } from "~/lib/staff.server";
import type { Route } from "./+types/dashboard";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  return { username: staff.username };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  return (
    <section>
      <title>{t("nav.dashboard")}</title>
      <h1>{t("nav.dashboard")}</h1>
      <p>{t("auth.welcome", { username: loaderData.username })}</p>
    </section>
  );
}
