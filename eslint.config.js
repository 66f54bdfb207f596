// Lint rules: typescript-eslint's recommended type-aware set, plus the style rules of docs/architecture.md
// that a machine can check (no `any`, no default exports, type-only imports).
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "data/", "coverage/", ".tmp/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The web interface's one script runs in browsers.
    files: ["src/web/static/**/*.js"],
    languageOptions: { globals: { ...globals.browser }, sourceType: "script" },
  },
  {
    files: ["**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": [
        "error",
        { selector: "ExportDefaultDeclaration", message: "Use named exports (docs/architecture.md, Style)." },
      ],
    },
  },
  // The layers' borders: the API and the web pages share only the HTTP kit (src/http-kit/), which
  // knows neither; the web reuses three API parts by name (the error table that decides statuses,
  // the multipart reader with its limits, the download's parameters).
  {
    files: ["src/http-kit/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/http/**", "**/web/**"], message: "The HTTP kit knows neither side." }] },
      ],
    },
  },
  {
    files: ["src/http/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/web/**"], message: "The API does not import the web pages." }] },
      ],
    },
  },
  {
    files: ["src/web/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./)+http/(?!(errors|multipart|endpoints/file-download/file-download\\.request)\\.js$)",
              message: "The web pages share the HTTP kit (src/http-kit/) with the API, not the API itself.",
            },
          ],
        },
      ],
    },
  },
);
