import ReactMarkdown, { type Components } from "react-markdown";
import styles from "./Markdown.module.css";

/**
 * Model text as markdown, rendered to React elements by react-markdown (no dangerouslySetInnerHTML).
 * Raw HTML in the text stays text (react-markdown escapes it without a raw-HTML plugin); images are never
 * loaded (their alt text is shown instead) and links are not followed (their address is shown on hover),
 * because the text is untrusted.
 */
const COMPONENTS: Components = {
  img: ({ alt }) => <span className={styles.mdImage}>[image{alt ? `: ${alt}` : ""}]</span>,
  a: ({ children, href }) => (
    <span className={styles.mdLink} title={href}>
      {children}
    </span>
  ),
};

/** No URL survives into the rendered elements: nothing can be fetched or navigated to from model text. */
function dropUrl(): string {
  return "";
}

export function Markdown({ text }: { text: string }) {
  return (
    <div className={styles.markdown} data-testid="markdown">
      <ReactMarkdown components={COMPONENTS} urlTransform={dropUrl}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
