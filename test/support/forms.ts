// The links and forms of a page, read from its HTML with parse5 (the HTML standard's parser, as
// a browser reads it), so the crawling tests find every form of every page, including those of
// pages added later, without being told about them.
import { type DefaultTreeAdapterMap, parse } from "parse5";

type Node = DefaultTreeAdapterMap["node"];
type Element = DefaultTreeAdapterMap["element"];

/** One named control of a form, as the page offers it. */
export interface FormField {
  readonly name: string;
  /** The input's type (`text`, `hidden`, `file`, `checkbox`...), or `select` / `textarea`. */
  readonly type: string;
  /** The value the page put there (a select's selected option, else its first). */
  readonly value: string;
  /** A select's option values. */
  readonly options: readonly string[];
  /** Checkboxes and radio buttons: whether the page checked it. */
  readonly checked: boolean;
  readonly required: boolean;
}

/** A form: where and how it is sent, and what it holds. */
export interface Form {
  /** Absolute URL of the action (the page itself when the form names none). */
  readonly action: string;
  readonly method: "GET" | "POST";
  readonly multipart: boolean;
  readonly fields: readonly FormField[];
  /** Named submit buttons, each a possible `name=value` of the submission. */
  readonly submitters: readonly { readonly name: string; readonly value: string }[];
}

const attr = (element: Element, name: string): string | undefined => element.attrs.find((a) => a.name === name)?.value;

function* elements(node: Node): Generator<Element> {
  if ("tagName" in node) yield node;
  const children = "childNodes" in node ? node.childNodes : [];
  for (const child of children) yield* elements(child);
  if (node.nodeName === "template" && "content" in node) yield* elements(node.content);
}

function text(node: Node): string {
  if (node.nodeName === "#text" && "value" in node) return node.value;
  return "childNodes" in node ? node.childNodes.map(text).join("") : "";
}

function field(element: Element): FormField | undefined {
  const name = attr(element, "name");
  if (!name || attr(element, "disabled") !== undefined) return undefined;
  const required = attr(element, "required") !== undefined;
  const checked = attr(element, "checked") !== undefined;
  if (element.tagName === "select") {
    const options = [...elements(element)].filter((e) => e.tagName === "option");
    const values = options.map((o) => attr(o, "value") ?? text(o).trim());
    const selected = options.findIndex((o) => attr(o, "selected") !== undefined);
    return { name, type: "select", value: values[Math.max(selected, 0)] ?? "", options: values, checked, required };
  }
  if (element.tagName === "textarea")
    return { name, type: "textarea", value: text(element), options: [], checked, required };
  const type = (attr(element, "type") ?? "text").toLowerCase();
  if (["submit", "button", "reset", "image"].includes(type)) return undefined;
  const value = attr(element, "value") ?? (type === "checkbox" || type === "radio" ? "on" : "");
  return { name, type, value, options: [], checked, required };
}

/** The `href` of every link of the page, resolved against `pageUrl`. */
export function linksOf(html: string, pageUrl: string): string[] {
  return [...elements(parse(html))]
    .filter((e) => e.tagName === "a" && attr(e, "href") !== undefined)
    .flatMap((e) => {
      try {
        return [new URL(attr(e, "href") ?? "", pageUrl).href];
      } catch {
        return [];
      }
    });
}

/** Every form of the page with its fields and named buttons. */
export function formsOf(html: string, pageUrl: string): Form[] {
  return [...elements(parse(html))]
    .filter((e) => e.tagName === "form")
    .map((form) => {
      const inside = [...elements(form)].slice(1);
      const controls = inside.filter((e) => ["input", "select", "textarea"].includes(e.tagName));
      const buttons = inside.filter(
        (e) => (e.tagName === "button" && (attr(e, "type") ?? "submit") === "submit") || attr(e, "type") === "submit",
      );
      return {
        action: new URL(attr(form, "action") || pageUrl, pageUrl).href,
        method: (attr(form, "method") ?? "get").toUpperCase() === "POST" ? "POST" : "GET",
        multipart: (attr(form, "enctype") ?? "").toLowerCase() === "multipart/form-data",
        fields: controls.flatMap((e) => field(e) ?? []),
        submitters: buttons.flatMap((e) => {
          const name = attr(e, "name");
          return name ? [{ name, value: attr(e, "value") ?? "" }] : [];
        }),
      };
    });
}
