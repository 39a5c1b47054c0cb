"use client";
import { useEffect, useRef } from "react";

/** Keys the inspector answers to; ignored while typing in a field. */
export type KeyName = "j" | "k" | "n" | "p" | "/" | "escape";
export type KeyHandlers = Partial<Record<KeyName, () => void>>;

const KEYS: Readonly<Record<string, KeyName>> = {
  j: "j",
  k: "k",
  n: "n",
  p: "p",
  "/": "/",
  Escape: "escape",
};

/** Inputs that take no typed text: a clicked checkbox ("mark for the report") keeps j/k for the list. */
const NOT_TYPED = new Set(["checkbox", "radio", "button", "submit", "reset", "file", "color", "range"]);

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return !NOT_TYPED.has(target.type);
  return target.isContentEditable || ["TEXTAREA", "SELECT"].includes(target.tagName);
}

export function useKeyboard(handlers: KeyHandlers): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      if (event.key !== "Escape" && isTyping(event.target)) return;
      const key = KEYS[event.key];
      if (key === undefined) return;
      const handler = latest.current[key];
      if (!handler) return;
      event.preventDefault();
      handler();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
