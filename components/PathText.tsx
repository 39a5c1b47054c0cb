import { Fragment } from "react";

/** Where a path may wrap: after a separator between names (/ _ . -), not inside a name. */
export function pathParts(path: string): string[] {
  return path.split(/(?<=[/_.-])(?=.)/);
}

/**
 * A file path that wraps after its separators ("configs/ workplace_ assistant.yaml"), never inside a name
 * while a separator fits the line: in a narrow column it broke every few letters ("workpla / ce_assistant").
 */
export function PathText({ path }: { path: string }) {
  let offset = 0;
  return (
    <>
      {pathParts(path).map((part, i) => {
        const key = offset;
        offset += part.length;
        return (
          <Fragment key={key}>
            {i > 0 && <wbr />}
            {part}
          </Fragment>
        );
      })}
    </>
  );
}
