/**
 * Verifiers registered by server name (the resources server's config name, e.g. `workplace_assistant`).
 */
import { BUNDLED_VERIFIERS } from "../verifiers";
import type { Verifier } from "./types";

export { pairingKey } from "./pairing";

export type VerifierRegistry = ReadonlyMap<string, Verifier>;

/** A registry of the given verifiers; a later verifier for the same server replaces an earlier one. */
export function createRegistry(verifiers: Iterable<Verifier>): VerifierRegistry {
  const map = new Map<string, Verifier>();
  for (const verifier of verifiers) map.set(verifier.server, verifier);
  return map;
}

export const defaultRegistry: VerifierRegistry = createRegistry(BUNDLED_VERIFIERS);

export function getVerifier(
  server: string,
  registry: VerifierRegistry = defaultRegistry,
): Verifier | undefined {
  return registry.get(server);
}

/** The server's tool names when its verifier knows them (feeds the unknown_tool and alias_guess flags). */
export function knownTools(
  server: string,
  registry: VerifierRegistry = defaultRegistry,
): readonly string[] | undefined {
  return registry.get(server)?.tools;
}

/** Every server with a verifier. */
export function verifierServers(registry: VerifierRegistry = defaultRegistry): readonly string[] {
  return [...registry.keys()];
}
