/**
 * What /live and `cli live` say when no Gym server answers: how to start one with `ng_run` and the run
 * folder's configs (the same command `no_verifier` names, lib/verify ngRunCommand).
 */
import { ngRunCommand } from "../verify/unverified";

/** The config path a Gym checkout gives a resources server (used when no folder config is known). */
const PLACEHOLDER_CONFIG = "resources_servers/SERVER/configs/SERVER.yaml";

/** One sentence: how to start the Gym server this page or command would talk to. */
export function startServerHint(configs: readonly string[] = []): string {
  const command = ngRunCommand(configs.length > 0 ? configs : [PLACEHOLDER_CONFIG]);
  return `No Gym server answers there. Start one from a Gym checkout with ${command}${configs.length > 0 ? " (the folder's configs)" : ""}, then connect to the host and port it prints for the resources server.`;
}
