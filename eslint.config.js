// ESLint over the browser game's JavaScript (plain ES modules, served as they are) and this file.
import js from "@eslint/js";
import globals from "globals";

const STATIC_JS = "src/ratscrew/web/static/js";

export default [
  // The command names what it lints (package.json); a bare `eslint` must not wander into the packages.
  { ignores: [".venv/", "build/", "artifacts/", "test-artifacts/"] },
  js.configs.recommended,
  {
    files: [`${STATIC_JS}/**/*.js`],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // types.d.ts only exists for the checker: the browser would ask for a types.js that is not there.
      "no-restricted-imports": ["error", { patterns: [{ group: ["**/types.js"], message: "import types in a JSDoc @import comment" }] }],
      eqeqeq: ["error", "always"],
      "no-implicit-coercion": ["error", { allow: ["!!"] }],
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      "no-var": "error",
      "prefer-const": "error",
      "object-shorthand": "error",
      "no-console": ["error", { allow: ["error"] }],
    },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];
