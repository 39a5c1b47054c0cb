import { ANALYTICS_TOOLS, DIRECTORY_TOOLS } from "./analytics";
import { CALENDAR_TOOLS } from "./calendar";
import type { ToolDef } from "./common";
import { CRM_TOOLS } from "./crm";
import { EMAIL_TOOLS } from "./email";
import { PROJECT_TOOLS } from "./project";

export type { ToolDef, ToolOutcome, WorkplaceState } from "./common";

/** All 27 tools, in the order Gym's get_tools registers them (utils.py). */
export const TOOL_DEFS: readonly ToolDef[] = [
  ...DIRECTORY_TOOLS,
  ...EMAIL_TOOLS,
  ...CALENDAR_TOOLS,
  ...ANALYTICS_TOOLS,
  ...PROJECT_TOOLS,
  ...CRM_TOOLS,
];

export const TOOLS_BY_NAME: ReadonlyMap<string, ToolDef> = new Map(TOOL_DEFS.map((t) => [t.name, t]));
