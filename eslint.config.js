// ESLint over the browser game's JavaScript (plain ES modules, served as they are) and this file.
import js from "@eslint/js";
import globals from "globals";

// Modules other work is reshaping now: neither type-checked (they have no `// @ts-check` line) nor linted
// yet. To check one, give it that first line and take it off this list; tests/test_frontend_check.py holds
// both to the same list.
export const NOT_YET_CHECKED = [
  "pages/drills.js",
  "pages/learn.js",
];

const STATIC_JS = "src/ratscrew/web/static/js";

export default [
  // The command names what it lints (package.json); a bare `eslint` must not wander into the packages.
  { ignores: [".venv/", "build/", "artifacts/", "test-artifacts/", ...NOT_YET_CHECKED.map((name) => `${STATIC_JS}/${name}`)] },
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
