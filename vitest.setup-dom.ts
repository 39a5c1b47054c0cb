// Setup for the "dom" project (*.test.tsx on jsdom): jest-dom's matchers, and an unmounted tree after each test
// (RTL cleans up by itself only when vitest globals are on, and they are off here).
import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => {
  cleanup();
});
