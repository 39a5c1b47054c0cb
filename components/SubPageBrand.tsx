import Link from "next/link";
import shell from "./subpage.module.css";

/** A secondary page's topbar title: the app's name, linking home, then the page's own name. */
export function SubPageBrand({ name }: { name: string }) {
  return (
    <div className={shell.brand}>
      <h1>
        <Link href="/">Rollout Inspector</Link>
      </h1>
      <span className={shell.brandSep}>/</span>
      <span>{name}</span>
    </div>
  );
}
