/**
 * The names a rollout knows, for lib/names' confusable check: a name that looks like one of these and is
 * not it gets the `confusable` flag. They are the verifying server and every server with a verifier, the
 * line's environment_name, the declared tools, the verifiers' tool lists (and the tools given for S), and
 * each call's emitted name and provenance server and tool.
 */
import { readProvenance } from "../identity/provenance-map";
import { KnownNames } from "../names";
import { functionCalls, type Rollout } from "../schemas";
import { defaultRegistry, type VerifierRegistry } from "./registry";
import { declaredToolNames, environmentName } from "./server";

export function knownNamesOf(
  rollout: Rollout,
  server: string | null,
  tools: readonly string[] = [],
  registry: VerifierRegistry = defaultRegistry,
): KnownNames {
  const names: string[] = [...declaredToolNames(rollout), ...tools];
  if (server !== null) names.push(server);
  const environment = environmentName(rollout);
  if (environment !== null) names.push(environment);
  for (const [name, verifier] of registry) names.push(name, ...(verifier.tools ?? []));
  for (const { call } of functionCalls(rollout)) names.push(call.name);
  for (const entry of readProvenance(rollout).entries.values())
    if (entry.valid) names.push(entry.identity.server_name, entry.identity.tool_name);
  return new KnownNames(names);
}
