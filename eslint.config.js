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
  // The layers' borders are dependency-cruiser's (.dependency-cruiser.mjs, `npm run lint:layers`).
);
