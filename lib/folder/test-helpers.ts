/** Test helpers for folders: walk a directory as the CLI does and decide every file's role (Node only). */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileRole, type RoleDecision } from "./roles";

/** Gym's example folders copied into the project (fixtures/gym-examples). */
export const GYM_EXAMPLES = join(import.meta.dirname, "../../fixtures/gym-examples");

/** Every Gym example folder (group/name), absolute. */
export const GYM_EXAMPLE_FOLDERS: readonly string[] = [
  "benchmarks",
  "environments",
  "resources_servers",
  "responses_api_agents",
].flatMap((group) => readdirSync(join(GYM_EXAMPLES, group)).map((name) => join(GYM_EXAMPLES, group, name)));

/** Every file below `root`, absolute, in sorted order. */
export function walkFiles(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) visit(full);
      else out.push(full);
    }
  };
  visit(root);
  return out;
}

/** The role of every file below `root`, each read whole. */
export function decideFolder(root: string): RoleDecision[] {
  return walkFiles(root).map((full) =>
    fileRole({ path: relative(root, full), head: readFileSync(full, "utf8"), complete: true }),
  );
}
