import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { FontWarmup } from "@/components/FontWarmup";
import { DataProvider } from "@/hooks/data-client";
import "./globals.css";

export const metadata: Metadata = {
  title: "Rollout Inspector",
  description:
    "See why an agent rollout scored 0: tool-call identity, provenance and in-browser verification.",
};

export const viewport: Viewport = {
  colorScheme: "light dark",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <DataProvider>{children}</DataProvider>
        <FontWarmup />
      </body>
    </html>
  );
}
