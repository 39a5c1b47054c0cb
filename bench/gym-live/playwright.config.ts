/** `npm run test:gym-live`'s browser tier: the project's Playwright settings, pointed at this folder. */
import { defineConfig } from "@playwright/test";
import base from "../../playwright.config";

export default defineConfig({
  ...base,
  testDir: ".",
  testMatch: "*.spec.ts",
  timeout: 600_000,
  webServer:
    base.webServer === undefined || Array.isArray(base.webServer)
      ? base.webServer
      : { ...base.webServer, cwd: "../.." },
});
