import { type Rollout, rolloutOrThrow } from "./rollout";

/** Tests build rollouts as plain JSON; this narrows one the way every front end does, failing loudly. */
export const asRollout = rolloutOrThrow;

/**
 * A lib entry point that takes a Rollout, taking plain JSON instead (narrowed first, failing loudly): lets
 * tests keep writing rollouts as object literals.
 */
export function narrowing<A extends unknown[], R>(
  fn: (rollout: Rollout, ...rest: A) => R,
): (value: unknown, ...rest: A) => R {
  return (value, ...rest) => fn(rolloutOrThrow(value), ...rest);
}
