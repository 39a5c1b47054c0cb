import type { CommandIo } from "../io";

// Placeholder until the resolve command lands (it is being built now).
export async function run(_args: string[], io: CommandIo): Promise<number> {
  await io.stderr.write("error: resolve is not built yet\n");
  return 2;
}
