// Server-side HTML from Eta templates (src/web/templates, copied next to the compiled code by
// `npm run build`). Every `<%= %>` is escaped; raw output (`<%~ %>`) is used only for markup that
// templates themselves produced (the layout's body, includes).
import { fileURLToPath } from "node:url";
import { Eta } from "eta";

/** Where the templates are: beside this module, in src/ (tests, tsx) and in dist/ (the built server). */
export const TEMPLATE_DIR = fileURLToPath(new URL("./templates/", import.meta.url));

const eta = new Eta({ views: TEMPLATE_DIR, autoEscape: true, cache: true, autoTrim: [false, "nl"], useWith: false });

/** Renders `templates/<name>.eta` with `data` as `it`. */
export function renderTemplate(name: string, data: object): string {
  return eta.render(`./${name}`, data);
}
