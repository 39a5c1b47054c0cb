import { chromium } from "@playwright/test";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage();
page.on("console", (m) => console.log("console:", m.type(), m.text().slice(0, 300)));
page.on("pageerror", (e) => console.log("pageerror:", e.message));
await page.goto(process.argv[2] ?? "http://127.0.0.1:3102/?sample=workplace-harnesses.jsonl");
await page.waitForTimeout(5000);
console.log(await page.locator("body").innerText().then((t) => t.slice(0, 600)));
await browser.close();
