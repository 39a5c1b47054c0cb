import { describe, expect, it } from "vitest";
import { asRollout } from "../schemas/test-helpers";
import { textToolCall, textToolCallText } from "./text-calls";

/** A response whose only output is one message with `text` (as a content part, or as a string). */
function said(text: string, role = "assistant", asString = false) {
  return asRollout({
    response: {
      output: [
        { type: "reasoning", summary: [{ type: "summary_text", text: '<tool_call>{"name": "thought"}' }] },
        {
          type: "message",
          role,
          content: asString ? text : [{ type: "output_text", text, annotations: [] }],
        },
      ],
    },
  });
}

describe("textToolCall", () => {
  it.each([
    [
      '<tool_call>\n{"name": "email_reply_email", "arguments": {"email_id": "1"}}\n</tool_call>',
      "<tool_call>",
      "email_reply_email",
    ],
    ["<tool_call>\nemail_reply_email(email_id=1)\n</tool_call>", "<tool_call>", null],
    [
      '<function=calendar_create_event>{"event_name": "x"}</function>',
      "<function=…>",
      "calendar_create_event",
    ],
    [
      '<|python_tag|>{"name": "company_directory_find_email_address", "parameters": {}}',
      "<|python_tag|>",
      "company_directory_find_email_address",
    ],
    ['[TOOL_CALLS][{"name": "email_send_email", "arguments": {}}]', "[TOOL_CALLS]", "email_send_email"],
    [
      'I will call it now.\n```json\n{"name": "email_delete_email", "arguments": {"email_id": "2"}}\n```',
      'a JSON call object ({"name": …, "arguments": …})',
      "email_delete_email",
    ],
  ])("reads %j as a call written as text", (text, form, name) => {
    expect(textToolCall(said(text))).toEqual({ form, name, output_index: 1 });
    expect(textToolCall(said(text, "assistant", true))).toEqual({ form, name, output_index: 1 });
  });

  it.each([
    "I replied to the email, as you asked.",
    "To do this I would need a tool call, which I cannot make.",
    '{"name": "Carlos", "email": "carlos@atlas.com"}',
  ])("reads no call in %j", (text) => {
    expect(textToolCall(said(text))).toBeNull();
  });

  it("reads assistant messages only (a user's or the reasoning's text is not the model's answer)", () => {
    expect(textToolCall(said('<tool_call>{"name": "a", "arguments": {}}</tool_call>', "user"))).toBeNull();
  });

  it("quotes the name it read (model text) with its control and bidi characters shown, never raw", () => {
    const name = 'bad\u001b[31m"name\u202Eabc\u2028x\u0085y';
    const sentence = textToolCallText({ form: "<tool_call>", name, output_index: 3 });
    expect(sentence).toContain('naming "bad⟨U+001B⟩[31m\\"name⟨U+202E⟩abc⟨U+2028⟩x⟨U+0085⟩y"');
    expect(sentence).toContain("output 3");
  });
});
