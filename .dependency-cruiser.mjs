// The layer table of docs/architecture.md "Layers", checked by dependency-cruiser (`npm run lint:layers`,
// part of `npm run lint`). Rules name folders, never files, so that a file may move inside its layer
// (src/services/<file>.ts into src/services/<resource>/<file>.ts) without touching this config.
// Type-only imports count like any other: a type is knowledge of the layer it comes from, and a cycle
// of types is still two modules that cannot be read one without the other.

/** What each layer may import besides itself ("imports point inwards"). */
const INWARD = {
  clock: [],
  domain: [],
  atom: [],
  config: ["domain"],
  mail: ["domain", "config"],
  store: ["domain", "config", "clock"],
  blobs: ["domain", "config", "clock"],
  auth: ["domain", "store", "config", "clock"],
  services: ["mail", "domain", "store", "blobs", "auth", "config", "clock"],
  seed: ["services", "mail", "domain", "store", "blobs", "auth", "config", "clock"],
  "http-kit": ["present", "atom", "services", "mail", "domain", "store", "blobs", "auth", "config", "clock"],
  context: ["http-kit", "services", "mail", "domain", "store", "blobs", "auth", "config", "clock"],
  smtp: ["services", "mail", "domain", "store", "blobs", "auth", "config", "clock"],
};

/** The folder (or root file) of a layer, as a path pattern. */
const PATH = {
  domain: "^src/domain/",
  atom: "^src/atom/",
  config: "^src/config/",
  mail: "^src/mail/",
  store: "^src/store/",
  blobs: "^src/blobs/",
  auth: "^src/auth/",
  services: "^src/services/",
  seed: "^src/seed/",
  present: "^src/present/",
  "http-kit": "^src/http-kit/",
  context: "^src/context\\.ts$",
  clock: "^src/clock\\.ts$",
  http: "^src/http/",
  web: "^src/web/",
  cli: "^src/cli/",
  app: "^src/app\\.ts$",
  smtp: "^src/smtp/",
};

const either = (layers) => layers.map((layer) => PATH[layer]);

/** One rule per layer of INWARD: anything of Kairan's outside the layer and its allowed inner layers is an upward arrow. */
const inwardRules = Object.entries(INWARD).map(([layer, inner]) => ({
  name: `layer-${layer}`,
  comment: `${layer} imports only ${inner.length ? inner.join(", ") : "itself"} (docs/architecture.md "Layers")`,
  severity: "error",
  from: { path: PATH[layer] },
  to: { path: "^src/", pathNot: either([layer, ...inner]) },
}));

export default {
  forbidden: [
    {
      name: "no-cycle",
      comment: 'No import cycle, type-only ones included (docs/architecture.md "Layers")',
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    ...inwardRules,
    {
      name: "layer-present",
      comment: "present reads domain and atom, and (types only) the views services return",
      severity: "error",
      from: { path: PATH.present },
      to: { path: "^src/", pathNot: either(["present", "domain", "atom", "services", "store", "clock"]) },
    },
    {
      name: "layer-present-views-only",
      comment: "present imports only types of services and the store: the views they return, never their code",
      severity: "error",
      from: { path: PATH.present },
      to: { path: either(["services", "store"]), dependencyTypesNot: ["type-only"] },
    },
    {
      name: "layer-edge",
      comment: "the API and the web use every layer below them; nothing but the command line and app.ts is above them",
      severity: "error",
      from: { path: either(["http", "web"]) },
      to: { path: either(["cli", "app"]) },
    },
    {
      name: "http-not-web",
      comment: "the API never imports the web pages",
      severity: "error",
      from: { path: PATH.http },
      to: { path: PATH.web },
    },
    {
      name: "web-three-parts-of-http",
      comment:
        "the web imports only three parts of the API: the error table, the multipart reader, the download's parameters",
      severity: "error",
      from: { path: PATH.web },
      to: {
        path: PATH.http,
        pathNot: "^src/http/(errors|multipart|endpoints/file-download/file-download\\.request)\\.ts$",
      },
    },
    {
      name: "app-not-cli",
      comment: "app.ts builds the server; the command line drives it, not the other way round",
      severity: "error",
      from: { path: PATH.app },
      to: { path: PATH.cli },
    },
    {
      name: "no-unresolvable",
      comment: "every import resolves (a typo would otherwise hide an arrow)",
      severity: "error",
      from: { path: "^src/" },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "^src/web/static/" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
