import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  // tsconfig's jsx setting belongs to Next's build; vitest compiles JSX itself with the automatic runtime.
  oxc: { jsx: { runtime: "automatic" } },
  test: {
    testTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "lib/**/*.test.ts",
            "cli/**/*.test.ts",
            "components/**/*.test.ts",
            "hooks/**/*.test.ts",
            "features/**/*.test.ts",
            "worker/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
          environment: "node",
        },
      },
      {
        // Component and hook tests (*.test.tsx, anywhere in the tree): React on jsdom.
        extends: true,
        test: {
          name: "dom",
          include: ["**/*.test.tsx"],
          exclude: ["**/node_modules/**", "**/.next/**", "e2e/**"],
          environment: "jsdom",
          setupFiles: ["./vitest.setup-dom.ts"],
        },
      },
    ],
  },
});
