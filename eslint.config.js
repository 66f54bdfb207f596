// Lint rules: typescript-eslint's recommended set, the type-aware promise rules (an unawaited or
// misplaced promise is an error), plus the style rules of docs/architecture.md that a machine can
// check (no `any`, no default exports, type-only imports).
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
    // Types from tsconfig.json (src, test, bench, scripts): one TypeScript program for every file.
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits loses its error and its ordering; fire-and-forget says so with `void` and a comment.
      "@typescript-eslint/no-floating-promises": [
        "error",
        // node:test awaits its own suites and tests: `describe(...)` and `test(...)` at the top level are not lost.
        {
          allowForKnownSafeCalls: [
            { from: "package", package: "node:test", name: ["describe", "suite", "it", "test", "before", "after"] },
          ],
        },
      ],
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
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
