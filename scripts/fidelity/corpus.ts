/**
 * The fidelity corpus: deterministic, adversarial but plausible workplace_assistant verify requests, each
 * tagged with the issue-11 class it exercises. Ground truths are chosen so the reward depends on the edge
 * being handled as Python does: an empty ground truth scores 1 only if the predicted call changed nothing;
 * a ground truth holding one candidate rendering of a value (Python's, or the JS engine's) scores 1 only if
 * the predicted call stored exactly that text.
 *
 * The same corpus is scored by Gym's own verifier (scripts/fidelity/gym_runner.py) and by this project's port.
 */
import { pyStr } from "../../lib/verifiers/workplace_assistant/py";
import { createRng, pick } from "../rng";
import { allDateTexts, CASE_BLOCKS, DIGIT_ZEROS, REPR_BLOCKS, randomCodePoint } from "./values";

export const CORPUS_SEED = 11;

export type FidelityClass =
  | "dates"
  | "repr"
  | "numbers"
  | "dict_order"
  | "int"
  | "case"
  | "nesting"
  | "json"
  | "types"
  | "plain"
  | "int_limit";

export interface CorpusEntry {
  readonly cls: FidelityClass;
  readonly request: Record<string, unknown>;
}

type Call = readonly [name: string, args: string];

const EMAILS = [
  "aisha.chen@atlas.com",
  "carlos.rodriguez@atlas.com",
  "fatima.khan@atlas.com",
  "luis.ortiz@atlas.com",
  "leila.azizi@atlas.com",
  "sofia.santos@atlas.com",
];
const EVENT_IDS = ["00000013", "00000275", "00000100", "00000299", "00000000", "00000150"];
const EMAIL_IDS = ["00000373", "00000353", "00000057", "00000499", "00000001", "00000250"];
const TASK_IDS = ["00000149", "00000037", "00000001", "00000299", "00000100"];
const CUSTOMER_IDS = ["00000189", "00000107", "00000001", "00000199", "00000095"];
const PLOT_VALUES = ["total_visits", "session_duration_seconds", "user_engaged", "visits_direct"];
const PLOT_TYPES = ["bar", "line", "scatter", "histogram"];

const j = (v: unknown) => JSON.stringify(v);

function request(
  id: number,
  predicted: readonly Call[],
  groundTruth: readonly Call[],
): Record<string, unknown> {
  return {
    id,
    category: "fidelity",
    environment_name: "workplace_assistant",
    ground_truth: groundTruth.map(([name, args]) => ({ name, arguments: args })),
    response: {
      output: predicted.map(([name, args], i) => ({
        type: "function_call",
        call_id: `call_${id}_${i}`,
        name,
        arguments: args,
        status: "completed",
      })),
    },
  };
}

/** Event fields with one value replaced (raw JSON text for that value). */
function createEvent(over: Record<string, string> = {}): string {
  const fields: Record<string, string> = {
    event_name: j("Budget sync"),
    participant_email: j("aisha.chen@atlas.com"),
    event_start: j("2023-12-01 10:00:00"),
    duration: j("30"),
    ...over,
  };
  return `{${Object.entries(fields)
    .map(([k, v]) => `${j(k)}: ${v}`)
    .join(", ")}}`;
}

/** create_plot arguments with time_min as raw JSON text; the other fields are drawn once per pair. */
function plotArgs(r: () => number): (timeMinRaw: string) => string {
  const value = j(pick(r, PLOT_VALUES));
  const type = j(pick(r, PLOT_TYPES));
  return (timeMinRaw) =>
    `{"time_min": ${timeMinRaw}, "time_max": "2023-11-30", "value_to_plot": ${value}, "plot_type": ${type}}`;
}

// Characters str.isprintable() rejects (and some it accepts) that models emit inside strings.
const REPR_CHARS = [
  "\u00a0",
  "\u0085",
  "\u00ad",
  "\u200b",
  "\u2028",
  "\u2029",
  "\u3000",
  "\ue000",
  "\u0378",
  "\ufeff",
  "\u180e",
  "\u061c",
  "\u200e",
  "\u2060",
  "\ufff9",
  "\u1680",
  "\u202f",
  "\x7f",
  "\x1b",
  "\x00",
  "\t",
  "\n",
  "'",
  '"',
  "\\",
  "é",
  "İ",
  "ß",
  "Σ",
  "😀",
  "\u{1d7ce}",
  "\u{e0001}",
  "\u{10ffff}",
  "\u{f0000}",
  "\u0600",
  "\u00b2",
];

/** A rendering a port without Python's tables would produce: only C0 controls and DEL escaped. */
function naiveRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}

/** A JS-engine rendering of a JSON number: what `String(Number(text))` prints. */
function jsNumberText(text: string): string {
  return String(Number(text));
}

const NUMBER_TEXTS = [
  "2023",
  "2023.0",
  "2023.50",
  "0.1",
  "1e16",
  "1E16",
  "1e400",
  "-1e400",
  "-0.0",
  "-0",
  "0",
  "1.5e-7",
  "123456789012345678901234567890",
  "9007199254740993",
  "9007199254740992.0",
  "1e22",
  "1e-5",
  "0.0001",
  "12345678901234567.0",
  "3.14159265358979323846",
  "NaN",
  "Infinity",
  "-Infinity",
  "100.0",
  "5e-324",
  "1.7976931348623157e308",
  "2.5",
  "-2023",
  "1_000",
];

const DURATION_TEXTS = [
  "30",
  '"30"',
  "30.0",
  "30.9",
  "0.5",
  "-5",
  "0",
  '"0"',
  '"-5"',
  "1e400",
  "-1e400",
  "NaN",
  "Infinity",
  "123456789012345678901234567890",
  '"30.0"',
  '"\u0663\u0660"',
  '"\uff13\uff10"',
  '" 30 "',
  '"\u300030"',
  '"\\u001c30"',
  '"30\\u0085"',
  '"3_0"',
  '"3__0"',
  '"\u00b2"',
  '"\u0968\u0966"',
  '"+30"',
  '"30min"',
  '"thirty"',
  "true",
  "false",
  "[30]",
  '{"m": 30}',
  '"\\t30\\n"',
  '"\\u000b30"',
  '"\\u00a030"',
  '"\u{1d7d1}\u{1d7ce}"',
  '"\u1811\u1810"',
  '"\u0e53\u0e50"',
  '"_30"',
  '"30_"',
  '"\u2163"',
];

const ID_TEXTS = [
  '"99999999999999999999"',
  '"9007199254740993"',
  '"18446744073709551615"',
  '" 00000500 "',
  '"\u0660\u0660\u0660\u0660\u0660\u0665\u0660\u0660"',
  '"\uff10\uff10\uff10\uff10\uff10\uff15\uff10\uff10"',
  '"00000500"',
  '"1e3"',
  '"00000500.0"',
  '"\u300000000500"',
  '"\\u001c00000500"',
  '"+00000500"',
  '"-1"',
  '"1_000_000"',
  '"9\u0669\u0669"',
  '"99999999999999999999999999999999999999"',
];

const CASE_TEXTS = [
  "ΣΑΣ@atlas.com",
  "Σ@atlas.com",
  "ΑΣ Β@atlas.com",
  "İstanbul@atlas.com",
  "STRASSE@atlas.com",
  "Straße@atlas.com",
  "ẞ@atlas.com",
  "KELVIN\u212a@atlas.com",
  "\u2126hm@atlas.com",
  "ǅ@atlas.com",
  "ᾈ@atlas.com",
  "Ⓐ@atlas.com",
  "\u{10400}@atlas.com",
  "\u{1e900}@atlas.com",
  "ＡＩＳＨＡ@atlas.com",
  "Aisha.Chen@Atlas.COM",
  "ΌΣΟΣ@atlas.com",
  "\u13a0@atlas.com",
  "\uab70@atlas.com",
  "Ϊ́@atlas.com",
  "ǰ@atlas.com",
  "ΐ@atlas.com",
  "Ⅻ@atlas.com",
  "\u1c90@atlas.com",
  "\u2c2f@atlas.com",
  "\ua7c0@atlas.com",
  "\u{16e40}@atlas.com",
  "ꞵ@atlas.com",
  // Case pairs added after Unicode 15.1 (Python 3.13 leaves them alone; a newer JS engine lowers them).
  "\ua7cb@atlas.com",
  "\ua7cc@atlas.com",
  "\ua7da@atlas.com",
  "\ua7dc@atlas.com",
  "\u1c89@atlas.com",
  "\u{10d50}\u{10d51}@atlas.com",
  "\u{16ea0}@atlas.com",
  // Final sigma next to characters whose casedness is newer than Unicode 15.1, or ignorable.
  "\ua7cbΣ@atlas.com",
  "AΣ\ua7cb@atlas.com",
  "Α\u0301Σ@atlas.com",
  "ΑΣ\u0301@atlas.com",
  "Α'Σ@atlas.com",
  "Α.Σ.@atlas.com",
  "\u1c89Σ Α@atlas.com",
];

const DICT_TEXTS = [
  '{"b": 1, "a": 2}',
  '{"2": "x", "1": "y"}',
  '{"b": 1, "1": 2, "a": 3, "0": 4}',
  '{"10": 1, "9": 2, "x": 3}',
  '{"a": 1, "a": 2}',
  '{"1": 1, "b": 2, "1": 3}',
  '{"-1": 1, "1": 2}',
  '{"01": 1, "1": 2}',
  '{"4294967295": 1, "4294967294": 2}',
  '{"1.5": 1, "1": 2}',
  '{"": 1, "0": 2}',
  '{"__proto__": 1, "2": 2}',
  '{"k": {"2": 1, "1": 2}}',
  '[{"b": 1, "0": 2}]',
  '{"x": 2023.0, "7": NaN}',
  '{"z": [1.0, 2], "3": null}',
];

function depthText(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}

export function buildCorpus(): CorpusEntry[] {
  const r = createRng(CORPUS_SEED);
  const out: CorpusEntry[] = [];
  const add = (cls: FidelityClass, predicted: readonly Call[], gt: readonly Call[]) =>
    out.push({ cls, request: request(out.length, predicted, gt) });

  // Dates: each text in two of the contexts pandas parses it.
  const texts = allDateTexts();
  [...texts.map((text, i) => [text, i] as const), ...texts.map((text, i) => [text, i + 3] as const)].forEach(
    ([text, i]) => {
      const t = j(text);
      switch (i % 6) {
        case 0:
          add("dates", [["calendar_create_event", createEvent({ event_start: t })]], []);
          break;
        case 1:
          add(
            "dates",
            [
              [
                "calendar_update_event",
                j({ event_id: pick(r, EVENT_IDS), field: "event_start", new_value: text }),
              ],
            ],
            [],
          );
          break;
        case 2:
          // A search after storing an aware/naive start: the comparisons raise TypeError when they mix.
          add(
            "dates",
            [
              [
                "calendar_update_event",
                j({
                  event_id: "00000013",
                  field: "event_start",
                  new_value: pick(r, [
                    "2023-08-01 09:00:00+02:00",
                    "2023-08-01T09:00:00Z",
                    "2023-08-01 09:00:00",
                  ]),
                }),
              ],
              ["calendar_search_events", `{"query": "sync", "time_min": ${t}}`],
              ["calendar_delete_event", j({ event_id: "00000275" })],
            ],
            [["calendar_delete_event", j({ event_id: "00000275" })]],
          );
          break;
        case 3:
          add(
            "dates",
            [
              ["calendar_search_events", `{"time_max": ${t}, "page_size": 3}`],
              ["calendar_create_event", createEvent({ event_start: t })],
            ],
            [["calendar_create_event", createEvent({ event_start: t })]],
          );
          break;
        case 4:
          add(
            "dates",
            [
              ["email_search_emails", `{"query": "update", "date_min": ${t}}`],
              ["calendar_create_event", createEvent({ event_start: t, duration: j("45") })],
            ],
            [],
          );
          break;
        default:
          add(
            "dates",
            [
              ["customer_relationship_manager_search_customers", `{"last_contact_date_min": ${t}}`],
              ["calendar_update_event", j({ event_id: "00000100", field: "event_start", new_value: text })],
            ],
            [["calendar_update_event", j({ event_id: "00000100", field: "event_start", new_value: text })]],
          );
      }
    },
  );

  // repr(): lists and dicts formatted into create_plot's file path.
  for (const ch of REPR_CHARS) {
    for (const wrap of ["list", "dict", "nested"] as const) {
      for (const candidate of ["python", "naive"] as const) {
        const s = `Q${ch}4`;
        const value = wrap === "list" ? [s] : wrap === "dict" ? new Map([["k", s]]) : [new Map([[s, [s]]])];
        const raw = wrap === "list" ? j([s]) : wrap === "dict" ? j({ k: s }) : j([{ [s]: [s] }]);
        const rendering =
          candidate === "python"
            ? pyStr(value)
            : wrap === "list"
              ? `[${naiveRepr(s)}]`
              : wrap === "dict"
                ? `{'k': ${naiveRepr(s)}}`
                : `[{${naiveRepr(s)}: [${naiveRepr(s)}]}]`;
        const args = plotArgs(r);
        add("repr", [["analytics_create_plot", args(raw)]], [["analytics_create_plot", args(j(rendering))]]);
      }
    }
  }

  // Numbers: int vs float text, big ints, overflow.
  for (const text of NUMBER_TEXTS) {
    for (const candidate of ["python", "js"] as const) {
      let rendering: string;
      if (candidate === "js") rendering = jsNumberText(text);
      else {
        const isInt = /^-?\d+$/.test(text);
        rendering = isInt ? BigInt(text).toString() : pyStr(Number(text));
      }
      const args = plotArgs(r);
      add(
        "numbers",
        [["analytics_create_plot", args(text)]],
        [["analytics_create_plot", args(j(rendering))]],
      );
    }
    add("numbers", [["calendar_create_event", createEvent({ duration: text })]], []);
    add(
      "numbers",
      [
        ["email_search_emails", `{"query": "budget", "page": ${text}, "page_size": 2}`],
        ["email_delete_email", j({ email_id: "00000057" })],
      ],
      [["email_delete_email", j({ email_id: "00000057" })]],
    );
    add(
      "numbers",
      [["customer_relationship_manager_search_customers", `{"status": "Won", "page_size": ${text}}`]],
      [],
    );
    add("numbers", [["calendar_search_events", `{"query": "review", "page": ${text}}`]], []);
  }
  for (const text of DURATION_TEXTS) {
    add("int", [["calendar_create_event", createEvent({ duration: text })]], []);
    add(
      "int",
      [["calendar_update_event", `{"event_id": "00000013", "field": "duration", "new_value": ${text}}`]],
      [],
    );
    add(
      "numbers",
      [
        [
          "customer_relationship_manager_update_customer",
          `{"customer_id": "00000189", "field": "notes", "new_value": ${text}}`,
        ],
      ],
      [
        [
          "customer_relationship_manager_update_customer",
          `{"customer_id": "00000189", "field": "notes", "new_value": ${j(text)}}`,
        ],
      ],
    );
  }
  // Ids: the next id is int(max(column)) + 1, zero-padded; exact beyond 2^53 and over any script's digits.
  for (const idText of ID_TEXTS) {
    for (const [tool, idField, create, extra] of [
      [
        "customer_relationship_manager_update_customer",
        "customer_id",
        "customer_relationship_manager_add_customer",
        '"customer_name": "Ada Lovelace", "assigned_to_email": "aisha.chen@atlas.com", "status": "Lead"',
      ],
      [
        "project_management_update_task",
        "task_id",
        "project_management_create_task",
        '"task_name": "Ship it", "assigned_to_email": "aisha.chen@atlas.com", "list_name": "Backlog", "due_date": "2023-12-01", "board": "Back end"',
      ],
    ] as const) {
      const id = pick(r, tool.startsWith("customer") ? CUSTOMER_IDS : TASK_IDS);
      const update: Call = [tool, `{"${idField}": ${j(id)}, "field": "${idField}", "new_value": ${idText}}`];
      const value = JSON.parse(idText) as string;
      for (const candidate of ["python", "js"] as const) {
        // The id the create should allocate, as each candidate computes it; the follow-up update marks it.
        let next: string;
        try {
          const digits = value.normalize("NFKC").replace(/[^\d+-]/g, "");
          const n = candidate === "python" ? BigInt(digits) + 1n : Number(digits) + 1;
          next = String(n).padStart(8, "0");
        } catch {
          next = "00000000";
        }
        const mark: Call = [
          tool,
          `{"${idField}": ${j(next)}, "field": "${tool.startsWith("customer") ? "notes" : "task_name"}", "new_value": "marked"}`,
        ];
        add("int", [update, [create, `{${extra}}`], mark], [update, [create, `{${extra}}`], mark]);
        add("int", [update, [create, `{${extra}}`], mark], [update, [create, `{${extra}}`]]);
      }
    }
  }

  // Dict key order and duplicate keys.
  for (const text of DICT_TEXTS) {
    const parsed = JSON.parse(text.replace(/\bNaN\b/g, "null")) as unknown;
    for (const candidate of ["python", "js"] as const) {
      const rendering = candidate === "js" ? jsDictRepr(parsed) : pythonDictRepr(text);
      const args = plotArgs(r);
      add(
        "dict_order",
        [["analytics_create_plot", args(text)]],
        [["analytics_create_plot", args(j(rendering))]],
      );
    }
  }
  add(
    "dict_order",
    [["calendar_delete_event", '{"event_id": "00000013", "event_id": "00000275"}']],
    [["calendar_delete_event", j({ event_id: "00000275" })]],
  );
  add(
    "dict_order",
    [["calendar_delete_event", '{"event_id": "00000013", "event_id": "00000275"}']],
    [["calendar_delete_event", j({ event_id: "00000013" })]],
  );
  add("dict_order", [["email_delete_email", '{"email_id": "00000057", "email_id": null}']], []);

  // Case mapping: the stored email is lower-cased by the tool, and every compared column by is_correct.
  for (const text of CASE_TEXTS) {
    const variants = [text.toUpperCase(), text.toLowerCase(), text, caseSwap(text)];
    for (const variant of variants) {
      add(
        "case",
        [["calendar_update_event", j({ event_id: "00000013", field: "participant_email", new_value: text })]],
        [
          [
            "calendar_update_event",
            j({ event_id: "00000013", field: "participant_email", new_value: variant }),
          ],
        ],
      );
      add(
        "case",
        [["calendar_create_event", createEvent({ event_name: j(text), participant_email: j(variant) })]],
        [["calendar_create_event", createEvent({ event_name: j(variant), participant_email: j(text) })]],
      );
    }
    add(
      "case",
      [["email_send_email", j({ recipient: text, subject: text, body: "hi" })]],
      [["email_send_email", j({ recipient: caseSwap(text), subject: text.toLowerCase(), body: "HI" })]],
    );
    add(
      "case",
      [
        ["company_directory_find_email_address", j({ name: text })],
        ["project_management_search_tasks", j({ assigned_to_email: text })],
      ],
      [],
    );
  }

  // json.loads nesting: CPython raises RecursionError past its limit and Gym skips the call.
  for (const depth of [1, 2, 10, 100, 500, 900, 9999, 10000, 12000, 20000]) {
    add(
      "nesting",
      [
        [
          "email_send_email",
          `{"recipient": "aisha.chen@atlas.com", "subject": "x", "body": ${depthText(depth)}}`,
        ],
      ],
      [],
    );
    add(
      "nesting",
      [
        [
          "calendar_update_event",
          `{"event_id": "00000013", "field": "event_name", "new_value": ${depthText(depth)}}`,
        ],
      ],
      [],
    );
    add(
      "nesting",
      [
        [
          "project_management_update_task",
          `{"task_id": "00000149", "field": "task_name", "new_value": "x", "extra": ${'{"a": '.repeat(depth)}1${"}".repeat(depth)}}`,
        ],
      ],
      [],
    );
  }

  // json.loads syntax: what Python accepts and refuses.
  for (const args of [
    '{"email_id": "00000057"}',
    "{'email_id': '00000057'}",
    '{"email_id": "00000057",}',
    '\ufeff{"email_id": "00000057"}',
    ' {"email_id": "00000057"} ',
    '{"email_id": "00000057"} x',
    '{"email_id": "0000005\\u0037"}',
    '{"email_id": "00000057\\/"}',
    '{"email_id": "00000057\n"}',
    '{"email_id": "00000057", "x": NaN}',
    '{"email_id": "00000057", "x": -Infinity}',
    '{"email_id": "00000057", "x": nan}',
    '{"email_id": "00000057", "x": 01}',
    '{"email_id": "00000057", "x": 1.}',
    '{"email_id": "00000057", "x": .5}',
    '{"email_id": "00000057", "x": +1}',
    '{"email_id": "00000057", "x": 1e5}',
    `{"email_id": "00000057", "x": ${"9".repeat(4300)}}`,
    `{"email_id": "00000057", "x": ${"9".repeat(4301)}}`,
    '{"email_id": "00000057", "x": "\\ud800"}',
    '{"email_id": "\\u0030\\u0030\\u0030\\u0030\\u0030\\u0030\\u0035\\u0037"}',
    '["00000057"]',
    '"00000057"',
    "",
    "null",
    '{"email_id": "00000057"}\n',
    '{"email_id":\t"00000057"}',
    '{"email_id": "00000057", "email_id": "00000058"}',
    '{"email_id": "00000057", "\\u0065mail_id": "00000373"}',
  ]) {
    add("json", [["email_delete_email", args]], []);
    add("json", [["email_delete_email", args]], [["email_delete_email", j({ email_id: "00000057" })]]);
  }

  addRandomised(r, add);
  addArgumentTypes(r, add);

  // Plain plausible trajectories over all 27 tools, with small perturbations of the ground truth.
  for (let i = 0; i < 900; i++) {
    const calls: Call[] = [];
    const n = 1 + Math.floor(r() * 4);
    for (let k = 0; k < n; k++) calls.push(randomCall(r));
    const gt =
      r() < 0.5
        ? calls.filter((c) => !c[0].includes("search") && !c[0].includes("get_"))
        : calls.slice(0, -1);
    add("plain", calls, r() < 0.5 ? calls : gt);
  }
  addIntLimit(add);
  return out;
}

/**
 * CPython's integer string-conversion limit (4300 digits) wherever Gym turns text into int: json.loads of the
 * arguments (the call is skipped), int() of a duration (refused as "Invalid duration format"), and dateutil's
 * int() of a seconds token inside pd.Timestamp (refused as an invalid event_start). Added last, so the
 * random draws of the classes above are unchanged.
 */
function addIntLimit(
  add: (cls: FidelityClass, predicted: readonly Call[], gt: readonly Call[]) => void,
): void {
  const digits = (n: number, d = "1") => d.repeat(n);
  const durations = [
    digits(4300),
    digits(4301),
    `-${digits(4300)}`,
    `-${digits(4301)}`,
    `${digits(4301)}.0`,
    `${digits(300)}.0`,
    `${digits(5000)}e-4990`,
    j(digits(4300)),
    j(digits(4301)),
    j(`${digits(4299, "0")}1`),
    j(`${digits(4300, "0")}1`),
    j(` ${digits(4300)} `),
    j(`\u3000${digits(4301)}`),
    j(digits(4300).split("").join("_")),
    j(`${digits(4301, "1_")}1`),
    j(`-${digits(4301)}`),
    j(`+${digits(4300)}`),
    j(digits(4301, "\u0663")),
    j(`${digits(4301)}x`),
    j(`${digits(4301)}.5`),
  ];
  for (const text of durations) {
    const create = createEvent({ duration: text });
    add("int_limit", [["calendar_create_event", create]], []);
    add("int_limit", [["calendar_create_event", create]], [["calendar_create_event", createEvent()]]);
    add(
      "int_limit",
      [["calendar_update_event", `{"event_id": "00000013", "field": "duration", "new_value": ${text}}`]],
      [["calendar_update_event", j({ event_id: "00000013", field: "duration", new_value: "30" })]],
    );
  }
  // An integer literal anywhere in the arguments, in the predicted or the ground-truth call.
  for (const literal of [
    digits(4300),
    digits(4301),
    `-${digits(4301)}`,
    `[${digits(4301)}]`,
    `${digits(9000)}.5`,
  ]) {
    const args = `{"email_id": "00000057", "extra": ${literal}}`;
    add("int_limit", [["email_delete_email", args]], [["email_delete_email", j({ email_id: "00000057" })]]);
    add("int_limit", [["email_delete_email", j({ email_id: "00000057" })]], [["email_delete_email", args]]);
    add("int_limit", [["email_delete_email", `{"extra": ${literal}, "email_id": "00000057"}`]], []);
  }
  // pandas builds each new row as a DataFrame, and converting an int cell to float overflows from 2**1024 - 2**970.
  const edge = 2n ** 1024n - 2n ** 970n;
  for (const literal of [
    `${edge - 1n}`,
    `${edge}`,
    `-${edge}`,
    digits(400),
    `[${digits(400)}]`,
    digits(4300),
  ]) {
    add("int_limit", [["calendar_create_event", createEvent({ event_name: literal })]], []);
    add(
      "int_limit",
      [["email_send_email", `{"recipient": "aisha.chen@atlas.com", "subject": "x", "body": ${literal}}`]],
      [],
    );
    add(
      "int_limit",
      [
        [
          "customer_relationship_manager_add_customer",
          `{"customer_name": "Ann", "assigned_to_email": "aisha.chen@atlas.com", "status": "Lead", "notes": ${literal}}`,
        ],
      ],
      [],
    );
    add(
      "int_limit",
      [
        [
          "project_management_create_task",
          `{"task_name": ${literal}, "assigned_to_email": "aisha.chen@atlas.com", "list_name": "Backlog", "due_date": "2023-12-01", "board": "Back end"}`,
        ],
      ],
      [],
    );
    add(
      "int_limit",
      [["calendar_update_event", `{"event_id": "00000013", "field": "event_name", "new_value": ${literal}}`]],
      [],
    );
  }
  // dateutil's int() of the whole-seconds part of "HH:MM:SS.f" (leading zeros count as digits).
  for (const zeros of [4298, 4299, 4300, 4301]) {
    for (const text of [
      `2023-12-01 10:00:${digits(zeros, "0")}1.5`,
      `Dec 1 2023 10:00:${digits(zeros, "0")}1.5`,
    ]) {
      add("int_limit", [["calendar_create_event", createEvent({ event_start: j(text) })]], []);
      add(
        "int_limit",
        [["calendar_update_event", j({ event_id: "00000013", field: "event_start", new_value: text })]],
        [],
      );
    }
  }
}

function caseSwap(s: string): string {
  return Array.from(s, (ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join("");
}

/** How Python prints a dict/list parsed from JSON text (insertion order, duplicates last-wins in place). */
function pythonDictRepr(text: string): string {
  // The generator's own minimal reading of the text: enough for the flat objects above.
  return pyStr(parseOrdered(text));
}

function parseOrdered(text: string): unknown {
  // JSON.parse with a reviver cannot keep integer-like key order; re-read keys in text order instead.
  const value = JSON.parse(text.replace(/\bNaN\b/g, '"__NaN__"')) as unknown;
  const order = [...text.matchAll(/"((?:[^"\\]|\\.)*)"\s*:/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
  const toPy = (v: unknown): unknown => {
    if (v === "__NaN__") return Number.NaN;
    if (typeof v === "number") return Number.isInteger(v) && !/\d\.\d/.test(String(v)) ? BigInt(v) : v;
    if (Array.isArray(v)) return v.map(toPy);
    if (v && typeof v === "object") {
      const m = new Map<string, unknown>();
      const keys = Object.keys(v);
      for (const k of order)
        if (keys.includes(k) && !m.has(k)) m.set(k, toPy((v as Record<string, unknown>)[k]));
      for (const k of keys) if (!m.has(k)) m.set(k, toPy((v as Record<string, unknown>)[k]));
      return m;
    }
    return v;
  };
  return toPy(value);
}

/** What a port on plain JS objects prints (integer-like keys first, floats as JS numbers). */
function jsDictRepr(value: unknown): string {
  const conv = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(conv);
    if (v && typeof v === "object") return new Map(Object.entries(v).map(([k, x]) => [k, conv(x)]));
    if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : v;
    return v;
  };
  return pyStr(conv(value));
}

function randomCall(r: () => number): Call {
  const email = pick(r, EMAILS);
  const date = pick(r, [
    "2023-12-01",
    "2023-12-01 10:00:00",
    "2023-11-30",
    "Dec 5 2023",
    "2023-12-15T14:30:00",
  ]);
  const tools: (() => Call)[] = [
    () => [
      "company_directory_find_email_address",
      j({ name: pick(r, ["aisha", "Carlos", "khan", "", "zz", "a.b"]) }),
    ],
    () => [
      "email_get_email_information_by_id",
      j({ email_id: pick(r, EMAIL_IDS), field: pick(r, ["subject", "body", "sender/recipient", "nope"]) }),
    ],
    () => [
      "email_search_emails",
      j({
        query: pick(r, ["update", "Budget meeting", "", "task"]),
        page: pick(r, [1, 2]),
        page_size: pick(r, [3, 5]),
      }),
    ],
    () => [
      "email_send_email",
      j({
        recipient: email,
        subject: pick(r, ["Update", "Re: plan"]),
        body: pick(r, ["See you", "Thanks!"]),
      }),
    ],
    () => ["email_delete_email", j({ email_id: pick(r, EMAIL_IDS) })],
    () => ["email_forward_email", j({ email_id: pick(r, EMAIL_IDS), recipient: email })],
    () => [
      "email_reply_email",
      j({ email_id: pick(r, EMAIL_IDS), body: pick(r, ["Sounds good", "Will do"]) }),
    ],
    () => [
      "calendar_get_event_information_by_id",
      j({ event_id: pick(r, EVENT_IDS), field: pick(r, ["event_name", "duration", "nope"]) }),
    ],
    () => [
      "calendar_search_events",
      j({ query: pick(r, ["sync", "review", ""]), time_min: pick(r, [date, null]) }),
    ],
    () => [
      "calendar_create_event",
      j({
        event_name: pick(r, ["Sync", "1:1"]),
        participant_email: email,
        event_start: date,
        duration: pick(r, ["30", "60", "0"]),
      }),
    ],
    () => ["calendar_delete_event", j({ event_id: pick(r, EVENT_IDS) })],
    () => [
      "calendar_update_event",
      j({
        event_id: pick(r, EVENT_IDS),
        field: pick(r, ["event_name", "duration", "event_start", "participant_email"]),
        new_value: pick(r, ["Planning", "45", date, email]),
      }),
    ],
    () => [
      "analytics_engaged_users_count",
      j({ time_min: "2023-11-01", time_max: pick(r, ["2023-11-30", "2023-12-01"]) }),
    ],
    () => ["analytics_get_visitor_information_by_id", j({ visitor_id: pick(r, ["0860", "4426", "9999"]) })],
    () => [
      "analytics_create_plot",
      j({
        time_min: "2023-11-01",
        time_max: "2023-11-30",
        value_to_plot: pick(r, PLOT_VALUES),
        plot_type: pick(r, [...PLOT_TYPES, "pie"]),
      }),
    ],
    () => [
      "analytics_traffic_source_count",
      j({ time_min: "2023-11-01", traffic_source: pick(r, ["direct", "referral", null]) }),
    ],
    () => ["analytics_total_visits_count", j({ time_min: "2023-11-01", time_max: "2023-11-15" })],
    () => ["analytics_get_average_session_duration", j({ time_min: "2023-11-20" })],
    () => [
      "project_management_get_task_information_by_id",
      j({ task_id: pick(r, TASK_IDS), field: pick(r, ["task_name", "board", "nope"]) }),
    ],
    () => [
      "project_management_search_tasks",
      j({ task_name: pick(r, ["animation", "Add"]), board: pick(r, ["Front end", null]) }),
    ],
    () => [
      "project_management_create_task",
      j({
        task_name: "Fix login",
        assigned_to_email: email,
        list_name: pick(r, ["Backlog", "In Progress", "Done"]),
        due_date: "2023-12-10",
        board: pick(r, ["Back end", "Design"]),
      }),
    ],
    () => ["project_management_delete_task", j({ task_id: pick(r, TASK_IDS) })],
    () => [
      "project_management_update_task",
      j({
        task_id: pick(r, TASK_IDS),
        field: pick(r, ["list_name", "board", "assigned_to_email", "due_date"]),
        new_value: pick(r, ["Completed", "Design", email, "2023-12-24"]),
      }),
    ],
    () => [
      "customer_relationship_manager_search_customers",
      j({
        customer_name: pick(r, ["Taylor", "Quinn", null]),
        status: pick(r, ["Won", "Lead", null]),
        product_interest: "Consulting",
      }),
    ],
    () => [
      "customer_relationship_manager_update_customer",
      j({
        customer_id: pick(r, CUSTOMER_IDS),
        field: pick(r, ["status", "notes", "customer_email", "follow_up_by"]),
        new_value: pick(r, ["Won", "Called back", "NEW@X.COM", "2023-12-31"]),
      }),
    ],
    () => [
      "customer_relationship_manager_add_customer",
      j({
        customer_name: "Jo Park",
        assigned_to_email: email,
        status: pick(r, ["Lead", "Qualified"]),
        customer_email: pick(r, ["Jo@Park.io", null]),
      }),
    ],
    () => ["customer_relationship_manager_delete_customer", j({ customer_id: pick(r, CUSTOMER_IDS) })],
  ];
  return pick(r, tools)();
}

/** How the project's repr() looked before Python's tables: escapes only what \\p{C} or \\p{Z} marks. */
function engineRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const hex = (w: number) => cp.toString(16).padStart(w, "0");
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(2)}`;
    else if (cp < 0x7f || !/[\p{C}\p{Z}]/u.test(ch)) out += ch;
    else if (cp <= 0xff) out += `\\x${hex(2)}`;
    else if (cp <= 0xffff) out += `\\u${hex(4)}`;
    else out += `\\U${hex(8)}`;
  }
  return out + quote;
}

function randomText(r: () => number, blocks: readonly (readonly [number, number])[], n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += String.fromCodePoint(randomCodePoint(r, blocks));
  return s;
}

/** Seeded random variations of each class, beyond the hand-picked values. */
function addRandomised(
  r: () => number,
  add: (cls: FidelityClass, predicted: readonly Call[], gt: readonly Call[]) => void,
): void {
  // repr(): random characters inside a list or dict formatted into a file path; GT is Python's rendering
  // or the rendering of one of two non-Python rules.
  for (let i = 0; i < 700; i++) {
    const s = randomText(r, REPR_BLOCKS, 1 + Math.floor(r() * 4));
    const wrap = pick(r, ["list", "dict"] as const);
    const value = wrap === "list" ? [s] : new Map([[s, s]]);
    const raw = wrap === "list" ? j([s]) : j({ [s]: s });
    const other = pick(r, [naiveRepr, engineRepr]);
    const rendering =
      pick(r, ["python", "other"] as const) === "python"
        ? pyStr(value)
        : wrap === "list"
          ? `[${other(s)}]`
          : `{${other(s)}: ${other(s)}}`;
    const args = plotArgs(r);
    add("repr", [["analytics_create_plot", args(raw)]], [["analytics_create_plot", args(j(rendering))]]);
  }
  // Numbers: random doubles and big integers, printed by Python or by the JS engine.
  for (let i = 0; i < 500; i++) {
    let text: string;
    const kind = r();
    if (kind < 0.4) {
      const x = (r() - 0.5) * 10 ** Math.floor(r() * 60 - 30);
      text = String(x);
    } else if (kind < 0.6) {
      text = `${Math.floor(r() * 1e6)}.0`;
    } else if (kind < 0.8) {
      const big = 2n ** BigInt(50 + Math.floor(r() * 80)) + BigInt(Math.floor(r() * 1000) - 500);
      text = (r() < 0.2 ? "-" : "") + big.toString();
    } else {
      text = `${Math.floor(r() * 9) + 1}.${Math.floor(r() * 1000)}e${Math.floor(r() * 700) - 350}`;
    }
    const isInt = /^-?\d+$/.test(text);
    const python = isInt ? BigInt(text).toString() : pyStr(Number(text));
    const rendering = r() < 0.5 ? python : jsNumberText(text);
    const args = plotArgs(r);
    add("numbers", [["analytics_create_plot", args(text)]], [["analytics_create_plot", args(j(rendering))]]);
  }
  // Dicts: random keys (integer-like among them), repeated keys, formatted into a file path.
  const keys = [
    "a",
    "b",
    "1",
    "2",
    "10",
    "0",
    "-1",
    "01",
    "x y",
    "__proto__",
    "constructor",
    "1e3",
    "\uff14",
    "9007199254740993",
    "4294967295",
  ];
  for (let i = 0; i < 400; i++) {
    const n = 2 + Math.floor(r() * 4);
    const parts: string[] = [];
    for (let k = 0; k < n; k++)
      parts.push(`${j(pick(r, keys))}: ${pick(r, ["1", "2.0", '"v"', "null", "true", "[1, 2]"])}`);
    const text = `{${parts.join(", ")}}`;
    const rendering = r() < 0.5 ? pythonDictRepr(text) : jsDictRepr(JSON.parse(text));
    const args = plotArgs(r);
    add(
      "dict_order",
      [["analytics_create_plot", args(text)]],
      [["analytics_create_plot", args(j(rendering))]],
    );
  }
  // int(): durations written with other scripts' digits, signs, underscores and whitespace of every kind.
  const spaces = [
    " ",
    "\t",
    "\n",
    "\u000b",
    "\u000c",
    "\r",
    "\u001c",
    "\u001f",
    "\u0085",
    "\u00a0",
    "\u2003",
    "\u3000",
    "\u200b",
    "\ufeff",
    "",
  ];
  for (let i = 0; i < 400; i++) {
    const zero = pick(r, DIGIT_ZEROS);
    const digits = Array.from({ length: 1 + Math.floor(r() * 3) }, () =>
      String.fromCodePoint(zero + Math.floor(r() * 10)),
    );
    if (r() < 0.15) digits.splice(1, 0, "_");
    const text = `${pick(r, spaces)}${pick(r, ["", "", "+", "-"])}${digits.join("")}${pick(r, spaces)}`;
    const tool = pick(r, ["create", "update"] as const);
    const call: Call =
      tool === "create"
        ? ["calendar_create_event", createEvent({ duration: j(text) })]
        : ["calendar_update_event", j({ event_id: "00000013", field: "duration", new_value: text })];
    add("int", [call], []);
  }
  // Case: random cased text (with Σ in every position), lowered by the tool and by is_correct.
  for (let i = 0; i < 400; i++) {
    const text = `${randomText(r, CASE_BLOCKS, 1 + Math.floor(r() * 5))}@atlas.com`;
    const variant = pick(r, [text.toUpperCase(), text.toLowerCase(), caseSwap(text), text]);
    const eventId = pick(r, EVENT_IDS);
    add(
      "case",
      [["calendar_update_event", j({ event_id: eventId, field: "participant_email", new_value: text })]],
      [["calendar_update_event", j({ event_id: eventId, field: "participant_email", new_value: variant })]],
    );
  }
}

/** Raw JSON texts for an argument a model gets the type of wrong. */
const WRONG_TYPES = [
  "57",
  "57.0",
  "true",
  "false",
  "null",
  "[]",
  "{}",
  '"57"',
  '" 00000057"',
  '"00000057 "',
  '["00000057"]',
  '["00000057", "00000373"]',
  '[["00000057"]]',
  '{"id": "00000057"}',
  "1e400",
  "NaN",
  '"\u0660\u0660\u0660\u0660\u0660\u0660\u0665\u0667"',
  '"00000057"',
  '"0000057"',
  '"000000057"',
  "[null]",
  "[1, 2, 3]",
];

/** Non-string ids, bounds and filters: numpy/pandas comparison rules decide what runs, raises or changes. */
function addArgumentTypes(
  r: () => number,
  add: (cls: FidelityClass, predicted: readonly Call[], gt: readonly Call[]) => void,
): void {
  for (const v of WRONG_TYPES) {
    add("types", [["email_delete_email", `{"email_id": ${v}}`]], []);
    add("types", [["email_reply_email", `{"email_id": ${v}, "body": "ok"}`]], []);
    add("types", [["email_forward_email", `{"email_id": ${v}, "recipient": "aisha.chen@atlas.com"}`]], []);
    add(
      "types",
      [
        [
          "email_get_email_information_by_id",
          `{"email_id": ${v}, "field": ${pick(r, ['"subject"', '["subject"]', "1", '"nope"'])}}`,
        ],
      ],
      [],
    );
    add(
      "types",
      [["project_management_delete_task", `{"task_id": ${v.replaceAll("00000057", "00000149")}}`]],
      [],
    );
    add(
      "types",
      [
        [
          "project_management_update_task",
          `{"task_id": ${v.replaceAll("00000057", "00000149")}, "field": "board", "new_value": "Design"}`,
        ],
      ],
      [],
    );
    add(
      "types",
      [
        [
          "customer_relationship_manager_delete_customer",
          `{"customer_id": ${v.replaceAll("00000057", "00000189")}}`,
        ],
      ],
      [],
    );
    add(
      "types",
      [
        [
          "customer_relationship_manager_update_customer",
          `{"customer_id": ${v.replaceAll("00000057", "00000189")}, "field": "status", "new_value": "Won"}`,
        ],
      ],
      [],
    );
    add("types", [["calendar_delete_event", `{"event_id": ${v.replaceAll("00000057", "00000013")}}`]], []);
    add(
      "types",
      [
        [
          "project_management_update_task",
          `{"task_id": "00000149", "field": "task_name", "new_value": ${v}}`,
        ],
      ],
      [
        [
          "project_management_update_task",
          `{"task_id": "00000149", "field": "task_name", "new_value": ${j(v)}}`,
        ],
      ],
    );
    for (const tool of [
      "analytics_total_visits_count",
      "analytics_engaged_users_count",
      "analytics_get_average_session_duration",
      "analytics_traffic_source_count",
    ]) {
      add(
        "types",
        [
          [tool, `{"time_min": ${v}, "time_max": ${pick(r, ['"2023-11-30"', v, "null"])}}`],
          ["email_delete_email", '{"email_id": "00000373"}'],
        ],
        [["email_delete_email", '{"email_id": "00000373"}']],
      );
    }
    add("types", [["customer_relationship_manager_search_customers", `{"follow_up_by_max": ${v}}`]], []);
    add("types", [["customer_relationship_manager_search_customers", `{"customer_name": ${v}}`]], []);
    add("types", [["project_management_search_tasks", `{"task_name": ${v}}`]], []);
    add("types", [["calendar_search_events", `{"query": ${v}}`]], []);
    add("types", [["company_directory_find_email_address", `{"name": ${v}}`]], []);
    add("types", [["analytics_get_visitor_information_by_id", `{"visitor_id": ${v}}`]], []);
    add(
      "types",
      [
        [
          "analytics_create_plot",
          `{"time_min": "2023-11-01", "time_max": "2023-11-30", "value_to_plot": ${v}, "plot_type": "bar"}`,
        ],
      ],
      [],
    );
    add("types", [["email_send_email", `{"recipient": ${v}, "subject": "s", "body": "b"}`]], []);
    add("types", [["calendar_create_event", createEvent({ participant_email: v })]], []);
    add(
      "types",
      [
        [
          "customer_relationship_manager_add_customer",
          `{"customer_name": ${v}, "assigned_to_email": "aisha.chen@atlas.com", "status": "Lead"}`,
        ],
      ],
      [],
    );
  }
}
